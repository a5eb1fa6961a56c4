// The dynamics module's public interface in one include.
#pragma once

#include "tumble/body.h"
#include "tumble/impulse.h"
#include "tumble/integrator.h"
#include "tumble/joint_type.h"
#include "tumble/mass.h"
