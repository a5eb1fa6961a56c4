#include <criterion/criterion.h>
Test(transform, placeholder)
{
	cr_assert(1);
}
