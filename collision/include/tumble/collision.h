// The collision module's public interface in one include.
#pragma once

#include "tumble/allocate.h"
#include "tumble/base.h"
#include "tumble/geometry.h"
#include "tumble/hull.h"
#include "tumble/manifold.h"
#include "tumble/mesh.h"
#include "tumble/query.h"
#include "tumble/raycast.h"
#include "tumble/toi.h"
#include "tumble/transform.h"
