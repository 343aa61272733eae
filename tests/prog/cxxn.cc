// cxxn.cc - libcxxn.so: C++ functions traced by their demangled names (cases_names.sh):
// two overloads of ns::foo and a method, each exported, each doing a little work.
#include <string>

namespace ns {

volatile long sink;

__attribute__((noinline)) long foo(const std::string &s)
{
	sink += (long)s.size();
	return (long)s.size();
}

__attribute__((noinline)) long foo(int i)
{
	sink += i;
	return i;
}

struct Klass {
	long method(int i);
};

__attribute__((noinline)) long Klass::method(int i)
{
	sink += 2 * i;
	return 2 * i;
}

} // namespace ns
