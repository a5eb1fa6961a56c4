// Tumble's public API in one include: #include <tumble/tumble.h>.
#pragma once

#include "tumble/base.h"
#include "tumble/collision.h"
#include "tumble/dynamics.h"
#include "tumble/joint.h"
#include "tumble/mover.h"
#include "tumble/save.h"
#include "tumble/scene.h"
#include "tumble/types.h"
#include "tumble/world.h"
