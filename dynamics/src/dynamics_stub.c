// Placeholder translation unit until the dynamics module lands (issue 3).
#include "tumble/manifold.h"

int tbDynamicsPlaceholder(void);
int tbDynamicsPlaceholder(void)
{
	return TB_MAX_MANIFOLD_POINTS;
}
