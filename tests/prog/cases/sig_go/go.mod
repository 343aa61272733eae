module siggo

go 1.19
