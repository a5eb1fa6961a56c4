// stub
#include <tumble/tumble.h>
int main(void)
{
	return 0;
}
