// The character mover: the plane solver and tbCharacter_Move (walk along the ground, slide, step
// up, snap down, fall, push, ride), built on the mover queries of mover_query.c (docs/mover.md).
#include <math.h>
#include <string.h>

#include "tumble/mover.h"
#include "world_internal.h"

// ---------------------------------------------------------------------------------------------
// The plane solver

vec3s tbSolveMoverPlanes(vec3s target, tbMoverConstraint* constraints, int count)
{
	if (constraints == NULL || count <= 0) {
		return target;
	}
	// Each push is capped, so that constraints no displacement satisfies (a capsule squeezed
	// between two walls) give a bounded answer: no feasible projection moves farther than the
	// target plus the largest offset along any one normal.
	float limit = glms_vec3_norm(target);
	float largest = 0.0f;
	for (int i = 0; i < count; ++i) {
		constraints[i].push = 0.0f;
		largest = fmaxf(largest, constraints[i].offset);
	}
	limit += largest;
	vec3s d = target;
	// Hildreth's method: Gauss-Seidel on the multipliers of min |d - target|^2 subject to
	// n_i . d >= o_i. With d = target + sum p_i n_i and unit normals, constraint i's multiplier
	// moves by -(n_i . d - o_i) and is clamped at zero (a plane pushes, never pulls).
	for (int iteration = 0; iteration < TB_MOVER_SOLVER_ITERATIONS; ++iteration) {
		float change = 0.0f;
		for (int i = 0; i < count; ++i) {
			tbMoverConstraint* c = constraints + i;
			float violation = glms_vec3_dot(c->normal, d) - c->offset;
			float push = fminf(fmaxf(c->push - violation, 0.0f), limit);
			float delta = push - c->push;
			c->push = push;
			d = glms_vec3_add(d, glms_vec3_scale(c->normal, delta));
			change += fabsf(delta);
		}
		if (change < 1e-6f) {
			break;
		}
	}
	return d;
}

// ---------------------------------------------------------------------------------------------
// The character

// Sweeps of collect, solve and cast in one slide; substeps of one move.
#define TB_MOVER_SLIDE_ITERATIONS 4
#define TB_MOVER_MAX_SUBSTEPS 16

tbCharacter tbMakeCharacter(const tbCharacterDef* def)
{
	tbCharacter c;
	memset(&c, 0, sizeof c);
	if (def == NULL) {
		tbSetError("tbMakeCharacter: def is null");
		return c;
	}
	c.def = *def;
	c.position = def->position;
	c.groundNormal = (vec3s){{0.0f, 1.0f, 0.0f}};
	c.groundTransform = tbTransformIdentity();
	const char* bad = NULL;
	if (!tbIsFiniteVec3(def->position)) {
		bad = "position is NaN or Inf";
	} else if (!(def->radius > 0.0f) || !(def->radius <= TB_MAX_LENGTH)) {
		bad = "radius must be > 0 and <= TB_MAX_LENGTH";
	} else if (!(def->halfHeight >= 0.0f) || !(def->halfHeight <= TB_MAX_LENGTH)) {
		bad = "halfHeight must be >= 0 and <= TB_MAX_LENGTH";
	} else if (!(def->maxSlopeAngle >= 0.0f) || !(def->maxSlopeAngle < 1.5707f)) {
		bad = "maxSlopeAngle must be in [0, pi/2) radians";
	} else if (!(def->stepHeight >= 0.0f) ||
	           !(def->stepHeight <= 2.0f * def->halfHeight + 2.0f * def->radius)) {
		bad = "stepHeight must be >= 0 and at most the capsule's height";
	} else if (!(def->skinWidth > 0.0f) || !(def->skinWidth < def->radius)) {
		bad = "skinWidth must be > 0 and below the radius";
	} else if (!(def->pushStrength >= 0.0f) || !isfinite(def->pushStrength)) {
		bad = "pushStrength must be finite and >= 0";
	} else if (!isfinite(def->gravityScale)) {
		bad = "gravityScale must be finite";
	}
	if (bad != NULL) {
		tbSetError("tbMakeCharacter: %s", bad);
		return c;
	}
	c.valid = true;
	return c;
}

tbGeometry tbCharacter_GetCapsule(const tbCharacter* character)
{
	if (character == NULL) {
		return tbMakeCapsule(0.0f, 0.0f);
	}
	return tbMakeCapsule(character->def.radius, character->def.halfHeight);
}

// One move's working state.
typedef struct tbMove
{
	tbWorldId world;
	tbCharacter* c;
	tbGeometry capsule;
	float cosMax;      // cos of the steepest walkable slope: walkable when n.y >= cosMax
	float margin;      // planes are collected this far out, m
	float groundReach; // a walkable plane this close is ground, m
	tbMoverPlane planes[TB_CHARACTER_MAX_PLANES];
	int planeCount;
	bool steepPushed; // a steep surface stopped the walk in the last slide
} tbMove;

static tbTransform tbUpright(vec3s p)
{
	tbTransform xf = {p, glms_quat_identity()};
	return xf;
}

static void tbMoveCollect(tbMove* m, vec3s p)
{
	m->planeCount = tbWorld_CollideMover(m->world, &m->capsule, tbUpright(p), m->margin,
	                                     m->c->def.filter, m->planes, TB_CHARACTER_MAX_PLANES);
}

static tbRayResult tbMoveCast(const tbMove* m, vec3s p, vec3s translation)
{
	return tbWorld_CastMover(m->world, &m->capsule, tbUpright(p), translation, m->c->def.filter);
}

// The closest walkable plane within reach among the collected ones, or -1.
static int tbMoveGround(const tbMove* m)
{
	int best = -1;
	for (int i = 0; i < m->planeCount; ++i) {
		const tbMoverPlane* p = m->planes + i;
		if (p->normal.y >= m->cosMax && p->separation <= m->groundReach &&
		    (best < 0 || p->separation < m->planes[best].separation)) {
			best = i;
		}
	}
	return best;
}

// The constraints of the collected planes, each keeping the skin width: n . d >= skin - s. A
// steep surface that faces up (a slope too steep to walk) also gets its normal's horizontal
// part as a wall, so that walking into it gains no height; its own plane still lets gravity
// slide the capsule down it. `steep` marks those walls.
static int tbMoveConstraints(const tbMove* m, tbMoverConstraint* cs, bool* steep)
{
	float skin = m->c->def.skinWidth;
	int k = 0;
	for (int i = 0; i < m->planeCount; ++i) {
		const tbMoverPlane* p = m->planes + i;
		vec3s n = p->normal;
		cs[k] = (tbMoverConstraint){n, skin - p->separation, 0.0f};
		steep[k++] = n.y < m->cosMax && n.y > -1e-3f;
		float h = sqrtf(n.x * n.x + n.z * n.z);
		if (n.y < m->cosMax && n.y > 1e-3f && h > 1e-3f) {
			// Moving x along the horizontal normal closes the gap by h x.
			vec3s wall = {{n.x / h, 0.0f, n.z / h}};
			cs[k] = (tbMoverConstraint){wall, (skin - p->separation) / h, 0.0f};
			steep[k++] = true;
		}
	}
	return k;
}

// Collide and slide: collect the planes, solve for the displacement closest to what is left,
// cast it, go to the first hit and slide on with what is left, at most a few times.
static vec3s tbMoveSlide(tbMove* m, vec3s p, vec3s delta)
{
	tbMoverConstraint cs[2 * TB_CHARACTER_MAX_PLANES];
	bool steep[2 * TB_CHARACTER_MAX_PLANES];
	m->steepPushed = false;
	vec3s left = delta;
	for (int iteration = 0; iteration < TB_MOVER_SLIDE_ITERATIONS; ++iteration) {
		tbMoveCollect(m, p);
		int count = tbMoveConstraints(m, cs, steep);
		vec3s d = tbSolveMoverPlanes(left, cs, count);
		for (int i = 0; i < count; ++i) {
			m->steepPushed = m->steepPushed || (steep[i] && cs[i].push > 1e-5f);
		}
		if (!(glms_vec3_norm(d) > 1e-6f)) {
			break;
		}
		tbRayResult hit = tbMoveCast(m, p, d);
		if (!hit.hit) {
			p = glms_vec3_add(p, d);
			break;
		}
		p = glms_vec3_add(p, glms_vec3_scale(d, hit.fraction));
		left = glms_vec3_scale(d, 1.0f - hit.fraction);
	}
	return p;
}

// One substep: slide by `delta`; when a steep surface stopped the walk on the ground (or took
// part of it before, `blocked`), try to step up: rise by up to stepHeight, walk the requested
// `walk`, and come down onto walkable ground.
static vec3s tbMoveSubstep(tbMove* m, vec3s p0, vec3s walk, vec3s delta, bool canStep, bool blocked)
{
	vec3s p1 = tbMoveSlide(m, p0, delta);
	vec3s flat = {{walk.x, 0.0f, walk.z}};
	float length = glms_vec3_norm(flat);
	if (!canStep || !(m->steepPushed || blocked) || !(length > 1e-6f)) {
		return p1;
	}
	vec3s dir = glms_vec3_scale(flat, 1.0f / length);
	float progress = glms_vec3_dot(glms_vec3_sub(p1, p0), dir);
	if (progress > 0.99f * length) {
		return p1;
	}
	const tbCharacterDef* def = &m->c->def;
	float skin = def->skinWidth;
	tbRayResult up = tbMoveCast(m, p0, (vec3s){{0.0f, def->stepHeight, 0.0f}});
	float rise = up.hit ? fmaxf(0.0f, up.fraction * def->stepHeight - skin) : def->stepHeight;
	if (rise < skin) {
		return p1;
	}
	vec3s raised = {{p0.x, p0.y + rise, p0.z}};
	// Over the step's edge the capsule's round bottom meets the edge first, a normal too steep
	// to stand on: walk on by up to the radius until it comes down on the step's top.
	static const float extra[3] = {0.0f, 0.5f, 1.0f};
	for (int i = 0; i < 3; ++i) {
		vec3s forward = glms_vec3_add(flat, glms_vec3_scale(dir, extra[i] * def->radius));
		vec3s moved = tbMoveSlide(m, raised, forward);
		float drop = rise + skin;
		tbRayResult down = tbMoveCast(m, moved, (vec3s){{0.0f, -drop, 0.0f}});
		if (!down.hit || down.normal.y < m->cosMax) {
			continue;
		}
		vec3s landed = {{moved.x, moved.y - fmaxf(0.0f, down.fraction * drop - skin), moved.z}};
		// What it lands on (a top face, or the edge its round bottom rests on) is no higher than
		// stepHeight above its foot, and it got farther than without the step.
		float foot = p0.y - def->halfHeight - def->radius - skin;
		if (down.point.y - foot <= def->stepHeight + skin &&
		    glms_vec3_dot(glms_vec3_sub(landed, p0), dir) > progress + 1e-4f) {
			return landed;
		}
	}
	return p1;
}

// The walk along ground of normal n: the horizontal walk lifted onto the plane (its heading
// kept) and scaled back to the walk's speed, so that a slope neither speeds nor slows it.
static vec3s tbWalkAlong(vec3s walk, vec3s n)
{
	float speed = glms_vec3_norm(walk);
	if (!(speed > 0.0f) || !(n.y > 1e-3f)) {
		return walk;
	}
	vec3s t = {{walk.x, -(n.x * walk.x + n.z * walk.z) / n.y, walk.z}};
	return glms_vec3_scale(t, speed / glms_vec3_norm(t));
}

// Push each dynamic body the character walks or falls into: an impulse along -n at the contact
// that brings the body's point there up to the character's speed into it, at most
// pushStrength * dt.
static void tbMovePush(const tbMove* m, vec3s intended, float timeStep)
{
	float strength = m->c->def.pushStrength;
	if (!(strength > 0.0f)) {
		return;
	}
	tbBodyId pushed[TB_CHARACTER_MAX_PLANES];
	int pushedCount = 0;
	for (int i = 0; i < m->planeCount; ++i) {
		const tbMoverPlane* p = m->planes + i;
		if (p->separation > m->groundReach) {
			continue;
		}
		tbBodyId body = tbShape_GetBody(p->shapeId);
		if (tbBody_GetType(body) != tb_dynamicBody) {
			continue;
		}
		bool seen = false;
		for (int j = 0; j < pushedCount; ++j) {
			seen = seen || TB_ID_EQUALS(pushed[j], body);
		}
		if (seen) {
			continue;
		}
		pushed[pushedCount++] = body;
		vec3s dir = glms_vec3_negate(p->normal);
		float into = glms_vec3_dot(intended, dir);
		vec3s r = glms_vec3_sub(p->point, tbBody_GetWorldCenterOfMass(body));
		vec3s vb = glms_vec3_add(tbBody_GetLinearVelocity(body),
		                         glms_vec3_cross(tbBody_GetAngularVelocity(body), r));
		float relative = into - glms_vec3_dot(vb, dir);
		float mass = tbBody_GetMass(body);
		if (!(relative > 0.0f) || !(mass > 0.0f)) {
			continue;
		}
		// The effective mass of the point along dir: 1 / (1/m + (r x d) . I^-1 (r x d)).
		vec3s rd = glms_vec3_cross(r, dir);
		mat3s inverse = glms_mat3_inv(tbBody_GetWorldInertia(body));
		float k = 1.0f / mass + glms_vec3_dot(rd, glms_mat3_mulv(inverse, rd));
		float impulse = fminf(relative / k, strength * timeStep);
		if (impulse > 0.0f && isfinite(impulse)) {
			tbBody_ApplyLinearImpulse(body, glms_vec3_scale(dir, impulse), p->point, true);
		}
	}
}

bool tbCharacter_Move(tbWorldId worldId, tbCharacter* character, vec3s walkVelocity, float timeStep)
{
	if (tbGetWorld(worldId, "tbCharacter_Move") == NULL) {
		return false;
	}
	if (character == NULL || !character->valid) {
		tbSetError("tbCharacter_Move: the character is null or not made by tbMakeCharacter");
		return false;
	}
	if (!(timeStep > 0.0f) || !isfinite(timeStep) || !tbIsFiniteVec3(walkVelocity) ||
	    !tbIsFiniteVec3(character->position) || !tbIsFiniteVec3(character->velocity)) {
		tbSetError("tbCharacter_Move: timeStep must be finite and > 0 (got %g), and the walk, "
		           "position and velocity finite",
		           (double)timeStep);
		return false;
	}
	tbCharacter* c = character;
	const tbCharacterDef* def = &c->def;
	tbMove m;
	memset(&m, 0, sizeof m);
	m.world = worldId;
	m.c = c;
	m.capsule = tbCharacter_GetCapsule(c);
	m.cosMax = cosf(def->maxSlopeAngle);
	m.margin = 4.0f * def->skinWidth;
	m.groundReach = 2.0f * def->skinWidth;
	vec3s p0 = c->position;

	// Ride: the ground body's motion since the last move carries the point the character stood
	// on (the exact displacement of that point, not its velocity times dt, so a turning platform
	// does not fling it outwards).
	vec3s carry = glms_vec3_zero();
	bool wasGrounded = c->grounded;
	if (wasGrounded && tbBody_IsValid(c->groundBodyId) &&
	    tbBody_GetType(c->groundBodyId) != tb_staticBody) {
		vec3s local = tbInvTransformPoint(c->groundTransform, p0);
		carry = glms_vec3_sub(tbTransformPoint(tbBody_GetTransform(c->groundBodyId), local), p0);
	}

	// The ground where the ride takes it.
	tbMoveCollect(&m, glms_vec3_add(p0, carry));
	int ground = tbMoveGround(&m);
	bool jumping = c->velocity.y > 0.0f;
	bool standing = ground >= 0 && !jumping;
	// The walk loses its part into the steep surfaces it touches: walking into a slope too steep
	// to climb neither climbs it nor holds the character against its slide down.
	vec3s flat = {{walkVelocity.x, 0.0f, walkVelocity.z}};
	vec3s request = flat;
	bool blocked = false;
	for (int i = 0; i < m.planeCount; ++i) {
		vec3s n = m.planes[i].normal;
		float h = sqrtf(n.x * n.x + n.z * n.z);
		if (m.planes[i].separation <= m.groundReach && n.y < m.cosMax && h > 1e-3f) {
			vec3s wall = {{n.x / h, 0.0f, n.z / h}};
			float into = glms_vec3_dot(flat, wall);
			if (into < 0.0f) {
				flat = glms_vec3_sub(flat, glms_vec3_scale(wall, into));
				blocked = true;
			}
		}
	}
	vec3s walk = flat;
	if (standing) {
		c->velocity = glms_vec3_zero();
		walk = tbWalkAlong(flat, m.planes[ground].normal);
	} else {
		vec3s g = glms_vec3_scale(tbWorld_GetGravity(worldId), def->gravityScale);
		c->velocity = glms_vec3_add(c->velocity, glms_vec3_scale(g, timeStep));
	}
	vec3s intended = glms_vec3_add(walk, c->velocity);
	vec3s delta = glms_vec3_add(carry, glms_vec3_scale(intended, timeStep));

	// Substeps of at most half the radius: the casts already stop it at the first surface; short
	// substeps keep the planes it slides on and the stairs it steps up close to where it is.
	float length = glms_vec3_norm(delta);
	int substeps = (int)ceilf(length / (0.5f * def->radius));
	substeps =
	    substeps < 1 ? 1 : (substeps > TB_MOVER_MAX_SUBSTEPS ? TB_MOVER_MAX_SUBSTEPS : substeps);
	float share = 1.0f / (float)substeps;
	vec3s p = p0;
	vec3s walkStep = glms_vec3_scale(request, timeStep * share);
	vec3s deltaStep = glms_vec3_scale(delta, share);
	for (int i = 0; i < substeps; ++i) {
		p = tbMoveSubstep(&m, p, walkStep, deltaStep, standing && def->stepHeight > 0.0f, blocked);
	}

	// Snap down onto ground up to stepHeight below (down a step, over a crest).
	if (standing && def->stepHeight > 0.0f) {
		tbMoveCollect(&m, p);
		if (tbMoveGround(&m) < 0) {
			tbRayResult down = tbMoveCast(&m, p, (vec3s){{0.0f, -def->stepHeight, 0.0f}});
			if (down.hit && down.normal.y >= m.cosMax) {
				p.y -= fmaxf(0.0f, down.fraction * def->stepHeight - def->skinWidth);
			}
		}
	}

	// Where it ends: its ground, its velocity clipped by what it touches, what it pushes.
	tbMoveCollect(&m, p);
	ground = tbMoveGround(&m);
	for (int i = 0; i < m.planeCount; ++i) {
		const tbMoverPlane* plane = m.planes + i;
		float vn = glms_vec3_dot(c->velocity, plane->normal);
		if (plane->separation <= m.groundReach && vn < 0.0f) {
			c->velocity = glms_vec3_sub(c->velocity, glms_vec3_scale(plane->normal, vn));
		}
	}
	// It pushes with the walk it asked for, before the surfaces it touched took their part: a
	// body too heavy to move at once is a wall to the walk, yet still pushed every move.
	tbMovePush(&m, glms_vec3_add(request, c->velocity), timeStep);
	c->grounded = ground >= 0 && !(c->velocity.y > 0.0f);
	if (wasGrounded && !c->grounded) {
		// Leaving a moving platform keeps its velocity.
		c->velocity = glms_vec3_add(c->velocity, glms_vec3_scale(carry, 1.0f / timeStep));
	}
	if (c->grounded) {
		const tbMoverPlane* g = m.planes + ground;
		c->groundNormal = g->normal;
		c->groundPoint = g->point;
		c->groundShapeId = g->shapeId;
		c->groundBodyId = tbShape_GetBody(g->shapeId);
		c->groundTransform = tbBody_GetTransform(c->groundBodyId);
	} else {
		c->groundNormal = (vec3s){{0.0f, 1.0f, 0.0f}};
		c->groundPoint = glms_vec3_zero();
		c->groundShapeId = tb_nullShapeId;
		c->groundBodyId = tb_nullBodyId;
		c->groundTransform = tbTransformIdentity();
	}
	c->moveVelocity = glms_vec3_scale(glms_vec3_sub(p, p0), 1.0f / timeStep);
	c->position = p;
	return true;
}
