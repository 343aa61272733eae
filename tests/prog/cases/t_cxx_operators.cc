// t_cxx_operators.cc - C++ names as people write them in TSC_FUNCS (cxx_operators.sh): the
// global operator new(unsigned long) and the sized operator delete(void*, unsigned long),
// called outright a known number of times (a new-expression may be elided or merged by the
// compiler, an explicit call of the operator function may not), and a member of a class
// template whose demangled name has a comma and spaces inside its template arguments.
#include <cstdio>
#include <memory>
#include <new>

#define NEWS 37

namespace tt {
template <class T, class A> struct Box {
	T total = 0;
	__attribute__((noinline)) void put(T const &v);
};
template <class T, class A> void Box<T, A>::put(T const &v)
{
	total += v;
	asm volatile("" ::: "memory");
}
template struct Box<int, std::allocator<int> >;
} // namespace tt

int main()
{
	static void *volatile kept;
	tt::Box<int, std::allocator<int> > box;

	for (int i = 0; i < NEWS; i++) {
		kept = ::operator new(16 + i);
		::operator delete(kept, 16 + i);
	}
	for (int i = 1; i <= 11; i++)
		box.put(i);
	std::printf("news %d, box %d\n", NEWS, box.total);
	return 0;
}
