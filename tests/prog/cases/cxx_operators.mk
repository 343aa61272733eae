# t_cxx_operators is C++ (cxx_operators.sh): built alone, no libwork.so.
all: $(B)/t_cxx_operators
$(B)/t_cxx_operators: cases/t_cxx_operators.cc $(STAMP) | $(B)
	$(CXX) $(CXXFLAGS_T) -fno-builtin $(SAN) -o $@ $<
