// cx.cc - libcx.so: C++ callees an exception passes through. cx_outer and cx_catcher call
// cx_thrower through the PLT; cx_thrower throws when i is a multiple of 7.
#include <stdexcept>
#include <string>

extern "C" {
int cx_thrower(int i);
int cx_outer(int i);
int cx_catcher(int i);
}

int cx_thrower(int i)
{
	if (i % 7 == 0)
		throw std::runtime_error("multiple of seven: " + std::to_string(i));
	return i * 2;
}

int cx_outer(int i)
{
	return cx_thrower(i) + 1;
}

int cx_catcher(int i)
{
	try {
		return cx_thrower(i);
	} catch (const std::runtime_error &e) {
		return -static_cast<int>(std::string(e.what()).size());
	}
}
