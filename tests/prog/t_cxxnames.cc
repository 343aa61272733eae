// t_cxxnames.cc - C++ functions named in TSC_FUNCS as c++filt prints them (cases_names.sh):
// ns::foo(std::string const&) 300 times, ns::foo(int) 200, ns::Klass::method(int) 150 (all in
// libcxxn.so), and prog::local(int), the program's own and not exported, 70 times.
#include <cstdio>
#include <string>

namespace ns {
long foo(const std::string &s);
long foo(int i);
struct Klass {
	long method(int i);
};
} // namespace ns

namespace prog {
volatile long sink;

__attribute__((noinline)) long local(int i)
{
	sink += i;
	return i;
}
} // namespace prog

int main()
{
	std::string s = "abc";
	ns::Klass k;
	long sum = 0;

	for (int i = 0; i < 300; i++)
		sum += ns::foo(s);
	for (int i = 0; i < 200; i++)
		sum += ns::foo(i);
	for (int i = 0; i < 150; i++)
		sum += k.method(i);
	for (int i = 0; i < 70; i++)
		sum += prog::local(i);
	std::printf("sum %ld\n", sum);
	return 0;
}
