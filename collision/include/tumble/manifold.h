// Contact manifolds: what collision/ hands to dynamics/ for one touching shape pair.
#pragma once

#include "tumble/base.h"

#define TB_MAX_MANIFOLD_POINTS 4

/// One contact point. Positions are in world space.
typedef struct tbManifoldPoint
{
	vec3s pointA;     ///< on the surface of shape A, metres
	vec3s pointB;     ///< on the surface of shape B, metres
	float separation; ///< dot(pointB - pointA, normal): negative when penetrating, metres
	uint32_t id;      ///< feature id (which features of A and B made the point), for warm starting
} tbManifoldPoint;

/// Up to four contact points sharing one normal.
typedef struct tbManifold
{
	vec3s normal; ///< unit, world, from A towards B
	tbManifoldPoint points[TB_MAX_MANIFOLD_POINTS];
	int pointCount;
} tbManifold;
