#include <criterion/criterion.h>
#include <tumble/tumble.h>
Test(readme, placeholder)
{
	cr_assert(1);
}
