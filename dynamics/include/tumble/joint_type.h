// The kinds of joint (shared by the solver and the public joint API).
#pragma once

#include "tumble/base.h"

/// The kinds of joint.
typedef enum tbJointType
{
	tb_ballJoint = 0, ///< spherical: the anchors coincide, any rotation
	tb_hingeJoint,    ///< revolute: the anchors coincide, rotation about one axis only
	tb_sliderJoint,   ///< prismatic: translation along one axis only, no rotation
	tb_fixedJoint,    ///< weld: no relative motion
	tb_distanceJoint, ///< the anchors keep a distance (rigid, a range, or a spring)
	tb_wheelJoint,    ///< a wheel on a chassis: suspension along one axis, spin about another
	tb_jointTypeCount
} tbJointType;
