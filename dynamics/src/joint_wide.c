// Ball joints' point rows, TB_SIMD_WIDTH joints of one colour at a time (tbBallBatch): the rows
// of tbSolveBall lane by lane, in the same operations and order, so the same bits as one joint at
// a time. A colour's joints share no dynamic body, so its lanes never write the same body.
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "joint_internal.h"

// ---------------------------------------------------------------------------------------------
// Gather and scatter: a row (v or w) of each lane's body into wide x, y, z and back. A lane that
// must not write its body (static, kinematic, empty) is given a row of its own to write.

#if TB_SIMD_WIDTH == 4
static inline tbVec3W tbBallGather(const tbSolverBody* const* bodies, int row)
{
	__m128 r0 = _mm_load_ps(&bodies[0]->v[0] + 4 * row);
	__m128 r1 = _mm_load_ps(&bodies[1]->v[0] + 4 * row);
	__m128 r2 = _mm_load_ps(&bodies[2]->v[0] + 4 * row);
	__m128 r3 = _mm_load_ps(&bodies[3]->v[0] + 4 * row);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	tbVec3W out = {r0, r1, r2};
	return out;
}

static inline void tbBallScatter(tbSolverBody* const* bodies, int row, tbVec3W a)
{
	__m128 r0 = a.x, r1 = a.y, r2 = a.z, r3 = _mm_setzero_ps();
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	_mm_store_ps(&bodies[0]->v[0] + 4 * row, r0);
	_mm_store_ps(&bodies[1]->v[0] + 4 * row, r1);
	_mm_store_ps(&bodies[2]->v[0] + 4 * row, r2);
	_mm_store_ps(&bodies[3]->v[0] + 4 * row, r3);
}
#else
static inline tbVec3W tbBallGather(const tbSolverBody* const* bodies, int row)
{
	_Alignas(32) float x[TB_SIMD_WIDTH], y[TB_SIMD_WIDTH], z[TB_SIMD_WIDTH];
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		const float* at = &bodies[lane]->v[0] + 4 * row;
		x[lane] = at[0];
		y[lane] = at[1];
		z[lane] = at[2];
	}
	tbVec3W out = {tbLoadW(x), tbLoadW(y), tbLoadW(z)};
	return out;
}

static inline void tbBallScatter(tbSolverBody* const* bodies, int row, tbVec3W a)
{
	_Alignas(32) float x[TB_SIMD_WIDTH], y[TB_SIMD_WIDTH], z[TB_SIMD_WIDTH];
	tbStoreW(x, a.x);
	tbStoreW(y, a.y);
	tbStoreW(z, a.z);
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		float* at = &bodies[lane]->v[0] + 4 * row;
		at[0] = x[lane];
		at[1] = y[lane];
		at[2] = z[lane];
	}
}
#endif

// Rows of TB_SIMD_WIDTH floats one after another (a batch's [k][lane] arrays).
#define TB_ROW(a, k) ((a) + (k)*TB_SIMD_WIDTH)

static inline tbVec3W tbLoadVec3W(const float* a)
{
	tbVec3W v = {tbLoadW(TB_ROW(a, 0)), tbLoadW(TB_ROW(a, 1)), tbLoadW(TB_ROW(a, 2))};
	return v;
}

static inline void tbStoreVec3W(float* a, tbVec3W v)
{
	tbStoreW(TB_ROW(a, 0), v.x);
	tbStoreW(TB_ROW(a, 1), v.y);
	tbStoreW(TB_ROW(a, 2), v.z);
}

// a x b, as tbCross and glms_vec3_cross write it.
static inline tbVec3W tbCrossW(tbVec3W a, tbVec3W b)
{
	tbVec3W c = {tbSubW(tbMulW(a.y, b.z), tbMulW(a.z, b.y)),
	             tbSubW(tbMulW(a.z, b.x), tbMulW(a.x, b.z)),
	             tbSubW(tbMulW(a.x, b.y), tbMulW(a.y, b.x))};
	return c;
}

// m v with m's columns m[0..2], m[3..5], m[6..8] (tbMulMV's order of sums).
static inline tbVec3W tbMulMVW(const float* m, tbVec3W v)
{
	tbVec3W r;
	r.x = tbAddW(tbAddW(tbMulW(tbLoadW(TB_ROW(m, 0)), v.x), tbMulW(tbLoadW(TB_ROW(m, 3)), v.y)),
	             tbMulW(tbLoadW(TB_ROW(m, 6)), v.z));
	r.y = tbAddW(tbAddW(tbMulW(tbLoadW(TB_ROW(m, 1)), v.x), tbMulW(tbLoadW(TB_ROW(m, 4)), v.y)),
	             tbMulW(tbLoadW(TB_ROW(m, 7)), v.z));
	r.z = tbAddW(tbAddW(tbMulW(tbLoadW(TB_ROW(m, 2)), v.x), tbMulW(tbLoadW(TB_ROW(m, 5)), v.y)),
	             tbMulW(tbLoadW(TB_ROW(m, 8)), v.z));
	return r;
}

// The rows of a body (tbSolverBody): v, w, dp, each four floats.
enum
{
	tb_rowV = 0,
	tb_rowW = 1,
	tb_rowDp = 2
};

// The lanes' bodies, and the bodies each lane writes back: its own where it moves, else a sink.
typedef struct tbBallBodiesW
{
	const tbSolverBody *a[TB_SIMD_WIDTH], *b[TB_SIMD_WIDTH];
	tbSolverBody *outA[TB_SIMD_WIDTH], *outB[TB_SIMD_WIDTH];
} tbBallBodiesW;

static void tbBallBodiesAt(const tbBallBatch* b, tbSolverBody* states, tbSolverBody* sink,
                           tbBallBodiesW* p)
{
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		tbSolverBody* sa = states + b->indexA[lane];
		tbSolverBody* sb = states + b->indexB[lane];
		p->a[lane] = sa;
		p->b[lane] = sb;
		p->outA[lane] = b->movesA[lane] ? sa : sink + 2 * lane;
		p->outB[lane] = b->movesB[lane] ? sb : sink + 2 * lane + 1;
	}
}

// The impulse P at the anchors: -P to A, +P to B (tbApplyLinearTo), written back.
static inline void tbBallApplyW(const tbBallBatch* b, const tbBallBodiesW* p, tbVec3W vA,
                                tbVec3W wA, tbVec3W vB, tbVec3W wB, tbVec3W P)
{
	tbVec3W rA = tbLoadVec3W(b->rA[0]), rB = tbLoadVec3W(b->rB[0]);
	tbVec3W dwA = tbMulMVW(b->iA[0], tbCrossW(rA, P));
	tbVec3W dwB = tbMulMVW(b->iB[0], tbCrossW(rB, P));
	tbFloatW mA = tbLoadW(b->mA), mB = tbLoadW(b->mB);
	vA.x = tbSubW(vA.x, tbMulW(mA, P.x));
	vA.y = tbSubW(vA.y, tbMulW(mA, P.y));
	vA.z = tbSubW(vA.z, tbMulW(mA, P.z));
	wA = tbVecSubW(wA, dwA);
	vB.x = tbAddW(vB.x, tbMulW(mB, P.x));
	vB.y = tbAddW(vB.y, tbMulW(mB, P.y));
	vB.z = tbAddW(vB.z, tbMulW(mB, P.z));
	wB.x = tbAddW(wB.x, dwB.x);
	wB.y = tbAddW(wB.y, dwB.y);
	wB.z = tbAddW(wB.z, dwB.z);
	tbBallScatter(p->outA, tb_rowV, vA);
	tbBallScatter(p->outA, tb_rowW, wA);
	tbBallScatter(p->outB, tb_rowV, vB);
	tbBallScatter(p->outB, tb_rowW, wB);
}

void tbBallBatchInit(tbBallBatch* b, const tbJointRecord* records, const int* joints, int count,
                     int staticBody)
{
	memset(b, 0, sizeof *b);
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		b->indexA[lane] = b->indexB[lane] = staticBody;
		b->record[lane] = -1;
		if (lane >= count) {
			continue;
		}
		const tbJointRecord* r = records + joints[lane];
		b->turns = r->turns;
		b->turnedInertias = r->turnedInertias;
		b->record[lane] = joints[lane];
		b->indexA[lane] = r->indexA;
		b->indexB[lane] = r->indexB;
		b->movesA[lane] = r->movesA;
		b->movesB[lane] = r->movesB;
		b->mA[lane] = r->mA;
		b->mB[lane] = r->mB;
		b->biasRate[lane] = r->biasRate;
		b->massScale[lane] = r->massScale;
		b->impulseScale[lane] = r->impulseScale;
		b->h[lane] = r->h;
		for (int k = 0; k < 3; ++k) {
			b->impulse[k][lane] = r->joint->linearImpulse.raw[k];
			b->rA0[k][lane] = r->rA.raw[k];
			b->rB0[k][lane] = r->rB.raw[k];
			b->d0[k][lane] = r->d0.raw[k];
		}
	}
}

// The lanes' 3 x 3 matrices (by columns) as nine wide floats, m[0..9).
#if TB_SIMD_WIDTH == 4
_Static_assert(sizeof(mat3s) == 9 * sizeof(float), "a mat3s is nine floats");
static inline void tbGatherMat3(const mat3s* const* at, tbFloatW* m)
{
	// Entries 0-3 and 4-7 of each lane transposed four by four, then entry 8.
	for (int half = 0; half < 2; ++half) {
		__m128 r0 = _mm_loadu_ps(&at[0]->col[0].x + 4 * half);
		__m128 r1 = _mm_loadu_ps(&at[1]->col[0].x + 4 * half);
		__m128 r2 = _mm_loadu_ps(&at[2]->col[0].x + 4 * half);
		__m128 r3 = _mm_loadu_ps(&at[3]->col[0].x + 4 * half);
		_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
		m[4 * half] = r0;
		m[4 * half + 1] = r1;
		m[4 * half + 2] = r2;
		m[4 * half + 3] = r3;
	}
	__m128 low = _mm_unpacklo_ps(_mm_load_ss(&at[0]->col[2].z), _mm_load_ss(&at[1]->col[2].z));
	__m128 high = _mm_unpacklo_ps(_mm_load_ss(&at[2]->col[2].z), _mm_load_ss(&at[3]->col[2].z));
	m[8] = _mm_movelh_ps(low, high);
}
#else
static inline void tbGatherMat3(const mat3s* const* at, tbFloatW* m)
{
	_Alignas(32) float e[9][TB_SIMD_WIDTH];
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		const float* a = &at[lane]->col[0].x;
		for (int k = 0; k < 9; ++k) {
			e[k][lane] = a[k];
		}
	}
	for (int k = 0; k < 9; ++k) {
		m[k] = tbLoadW(e[k]);
	}
}
#endif

// m v with m's columns m[0..2], m[3..5], m[6..8] (tbMulMV's order of sums).
static inline tbVec3W tbMulMV9W(const tbFloatW* m, tbVec3W v)
{
	tbVec3W r;
	r.x = tbAddW(tbAddW(tbMulW(m[0], v.x), tbMulW(m[3], v.y)), tbMulW(m[6], v.z));
	r.y = tbAddW(tbAddW(tbMulW(m[1], v.x), tbMulW(m[4], v.y)), tbMulW(m[7], v.z));
	r.z = tbAddW(tbAddW(tbMulW(m[2], v.x), tbMulW(m[5], v.y)), tbMulW(m[8], v.z));
	return r;
}

// K's six entries (xx, xy, xz, yy, yz, zz) += [r]x^T I [r]x where `moves` (tbAddArmTerm).
static inline void tbAddArmTermW(tbFloatW* k, tbVec3W r, const tbFloatW* I, tbFloatW moves)
{
	tbFloatW x = r.x, y = r.y, z = r.z;
	tbFloatW i00 = I[0], i01 = I[3], i02 = I[6], i11 = I[4], i12 = I[7], i22 = I[8];
	tbFloatW a1 = tbSubW(tbMulW(i11, z), tbMulW(i12, y));
	tbFloatW a2 = tbSubW(tbMulW(i12, z), tbMulW(i22, y));
	tbFloatW b0 = tbSubW(tbMulW(i02, x), tbMulW(i00, z));
	tbFloatW b1 = tbSubW(tbMulW(i12, x), tbMulW(i01, z));
	tbFloatW b2 = tbSubW(tbMulW(i22, x), tbMulW(i02, z));
	tbFloatW c0 = tbSubW(tbMulW(i00, y), tbMulW(i01, x));
	tbFloatW c1 = tbSubW(tbMulW(i01, y), tbMulW(i11, x));
	tbFloatW c2 = tbSubW(tbMulW(i02, y), tbMulW(i12, x));
	k[0] = tbAddW(k[0], tbKeepW(moves, tbSubW(tbMulW(z, a1), tbMulW(y, a2))));
	k[1] = tbAddW(k[1], tbKeepW(moves, tbSubW(tbMulW(z, b1), tbMulW(y, b2))));
	k[2] = tbAddW(k[2], tbKeepW(moves, tbSubW(tbMulW(z, c1), tbMulW(y, c2))));
	k[3] = tbAddW(k[3], tbKeepW(moves, tbSubW(tbMulW(x, b2), tbMulW(z, b0))));
	k[4] = tbAddW(k[4], tbKeepW(moves, tbSubW(tbMulW(x, c2), tbMulW(z, c0))));
	k[5] = tbAddW(k[5], tbKeepW(moves, tbSubW(tbMulW(y, c0), tbMulW(x, c1))));
}

void tbBallBatchAnchors(tbBallBatch* b)
{
	// tbSolveBall's anchors: the step's turned by the bodies' turns. An empty lane reads zeros.
	static const mat3s zero3 = {0};
	const mat3s *turnA[TB_SIMD_WIDTH], *turnB[TB_SIMD_WIDTH];
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		if (b->record[lane] < 0) {
			turnA[lane] = turnB[lane] = &zero3;
			continue;
		}
		turnA[lane] = b->turns + b->indexA[lane];
		turnB[lane] = b->turns + b->indexB[lane];
	}
	tbFloatW tA[9], tB[9];
	tbGatherMat3(turnA, tA);
	tbGatherMat3(turnB, tB);
	tbStoreVec3W(b->rA[0], tbMulMV9W(tA, tbLoadVec3W(b->rA0[0])));
	tbStoreVec3W(b->rB[0], tbMulMV9W(tB, tbLoadVec3W(b->rB0[0])));
}

void tbBallBatchPrepare(tbBallBatch* b, const tbSolverBody* states)
{
	// tbSolveBall's gap and inertias at the anchors of tbBallBatchAnchors, tbPointMassOf's K and
	// tbSym3Solve's adjugate and determinant. An empty lane reads zero matrices.
	static const mat3s zero3 = {0};
	const mat3s *inertiaA[TB_SIMD_WIDTH], *inertiaB[TB_SIMD_WIDTH];
	const tbSolverBody *bodyA[TB_SIMD_WIDTH], *bodyB[TB_SIMD_WIDTH];
	for (int lane = 0; lane < TB_SIMD_WIDTH; ++lane) {
		int ia = b->indexA[lane], ib = b->indexB[lane];
		bodyA[lane] = states + ia;
		bodyB[lane] = states + ib;
		if (b->record[lane] < 0) {
			inertiaA[lane] = inertiaB[lane] = &zero3;
			continue;
		}
		inertiaA[lane] = b->turnedInertias + ia;
		inertiaB[lane] = b->turnedInertias + ib;
	}
	tbFloatW iA[9], iB[9];
	tbGatherMat3(inertiaA, iA);
	tbGatherMat3(inertiaB, iB);
	tbVec3W rA0 = tbLoadVec3W(b->rA0[0]), rB0 = tbLoadVec3W(b->rB0[0]), d0 = tbLoadVec3W(b->d0[0]);
	tbVec3W rA = tbLoadVec3W(b->rA[0]), rB = tbLoadVec3W(b->rB[0]);
	tbVec3W pA = tbBallGather(bodyA, tb_rowDp), pB = tbBallGather(bodyB, tb_rowDp);
	// d = d0 + (dpB + rB - rB0) - (dpA + rA - rA0)
	tbVec3W d = {
	    tbAddW(d0.x, tbSubW(tbAddW(pB.x, tbSubW(rB.x, rB0.x)), tbAddW(pA.x, tbSubW(rA.x, rA0.x)))),
	    tbAddW(d0.y, tbSubW(tbAddW(pB.y, tbSubW(rB.y, rB0.y)), tbAddW(pA.y, tbSubW(rA.y, rA0.y)))),
	    tbAddW(d0.z, tbSubW(tbAddW(pB.z, tbSubW(rB.z, rB0.z)), tbAddW(pA.z, tbSubW(rA.z, rA0.z))))};
	tbStoreVec3W(b->d[0], d);
	for (int k = 0; k < 9; ++k) {
		tbStoreW(b->iA[k], iA[k]);
		tbStoreW(b->iB[k], iB[k]);
	}
	// K = (mA + mB) 1 - [rA]x IA [rA]x - [rB]x IB [rB]x, the arms' terms of the moving sides.
	tbFloatW zero = tbZeroW();
	tbFloatW mA = tbLoadW(b->mA), mB = tbLoadW(b->mB);
	tbFloatW m = tbAddW(mA, mB);
	tbFloatW k[6] = {m, zero, zero, m, zero, m};
	tbAddArmTermW(k, rA, iA, tbGreaterW(mA, zero));
	tbAddArmTermW(k, rB, iB, tbGreaterW(mB, zero));
	tbFloatW xx = k[0], xy = k[1], xz = k[2], yy = k[3], yz = k[4], zz = k[5];
	tbFloatW a00 = tbSubW(tbMulW(yy, zz), tbMulW(yz, yz));
	tbFloatW a01 = tbSubW(tbMulW(xz, yz), tbMulW(xy, zz));
	tbFloatW a02 = tbSubW(tbMulW(xy, yz), tbMulW(xz, yy));
	tbFloatW det = tbAddW(tbAddW(tbMulW(xx, a00), tbMulW(xy, a01)), tbMulW(xz, a02));
	// Invertible: det finite and not zero.
	tbFloatW inf = tbSplatW(INFINITY), negInf = tbSplatW(-INFINITY);
	tbFloatW pos = tbAndMaskW(tbGreaterW(det, zero), tbLessW(det, inf));
	tbFloatW neg = tbAndMaskW(tbLessW(det, zero), tbGreaterW(det, negInf));
	tbStoreW(b->valid, tbSelectW(pos, neg, pos));
	tbStoreW(b->adj[0], a00);
	tbStoreW(b->adj[1], a01);
	tbStoreW(b->adj[2], a02);
	tbStoreW(b->adj[3], tbSubW(tbMulW(xx, zz), tbMulW(xz, xz)));
	tbStoreW(b->adj[4], tbSubW(tbMulW(xy, xz), tbMulW(xx, yz)));
	tbStoreW(b->adj[5], tbSubW(tbMulW(xx, yy), tbMulW(xy, xy)));
	tbStoreW(b->inv, tbDivW(tbSplatW(1.0f), det));
}

void tbBallBatchWarmStart(const tbBallBatch* b, tbSolverBody* states)
{
	tbSolverBody sink[2 * TB_SIMD_WIDTH];
	tbBallBodiesW p;
	tbBallBodiesAt(b, states, sink, &p);
	tbVec3W vA = tbBallGather(p.a, tb_rowV), wA = tbBallGather(p.a, tb_rowW);
	tbVec3W vB = tbBallGather(p.b, tb_rowV), wB = tbBallGather(p.b, tb_rowW);
	tbBallApplyW(b, &p, vA, wA, vB, wB, tbLoadVec3W(b->impulse[0]));
}

void tbBallBatchSolve(tbBallBatch* b, tbSolverBody* states, bool useBias)
{
	tbSolverBody sink[2 * TB_SIMD_WIDTH];
	tbBallBodiesW p;
	tbBallBodiesAt(b, states, sink, &p);
	tbVec3W vA = tbBallGather(p.a, tb_rowV), wA = tbBallGather(p.a, tb_rowW);
	tbVec3W vB = tbBallGather(p.b, tb_rowV), wB = tbBallGather(p.b, tb_rowW);
	tbVec3W rA = tbLoadVec3W(b->rA[0]), rB = tbLoadVec3W(b->rB[0]), d = tbLoadVec3W(b->d[0]);
	tbFloatW zero = tbZeroW();
	// The soft coefficients of the pass (tbRigidSoftness).
	tbFloatW biasRate = useBias ? tbLoadW(b->biasRate) : zero;
	tbFloatW massScale = useBias ? tbLoadW(b->massScale) : tbSplatW(1.0f);
	tbFloatW impulseScale = useBias ? tbLoadW(b->impulseScale) : zero;
	// Cdot + bias C (tbSolvePointWith).
	tbVec3W cA = tbCrossW(wA, rA), cB = tbCrossW(wB, rB);
	tbVec3W target = {
	    tbAddW(tbSubW(tbAddW(vB.x, cB.x), tbAddW(vA.x, cA.x)), tbMulW(biasRate, d.x)),
	    tbAddW(tbSubW(tbAddW(vB.y, cB.y), tbAddW(vA.y, cA.y)), tbMulW(biasRate, d.y)),
	    tbAddW(tbSubW(tbAddW(vB.z, cB.z), tbAddW(vA.z, cA.z)), tbMulW(biasRate, d.z))};
	if (useBias) {
		// The anchors' arcs over the substep (tbArcCorrection), none where a body turns fast.
		tbVec3W aA = tbCrossW(wA, tbCrossW(wA, rA));
		tbVec3W aB = tbCrossW(wB, tbCrossW(wB, rB));
		tbFloatW h = tbLoadW(b->h);
		tbFloatW turn2 = tbMulW(tbMulW(h, h), tbMaxW(tbDotW(wA, wA), tbDotW(wB, wB)));
		tbFloatW fast = tbGreaterW(turn2, tbSplatW(TB_ARC_TURN * TB_ARC_TURN));
		tbFloatW half = tbMulW(tbSplatW(0.5f), h);
		tbVec3W arc = {tbSelectW(fast, tbMulW(tbSubW(aB.x, aA.x), half), zero),
		               tbSelectW(fast, tbMulW(tbSubW(aB.y, aA.y), half), zero),
		               tbSelectW(fast, tbMulW(tbSubW(aB.z, aA.z), half), zero)};
		target.x = tbAddW(target.x, arc.x);
		target.y = tbAddW(target.y, arc.y);
		target.z = tbAddW(target.z, arc.z);
	}
	// K^-1 target by the adjugate (tbSym3Solve), zero where K is singular.
	tbFloatW valid = tbLoadW(b->valid), inv = tbLoadW(b->inv);
	tbFloatW a00 = tbLoadW(b->adj[0]), a01 = tbLoadW(b->adj[1]), a02 = tbLoadW(b->adj[2]);
	tbFloatW a11 = tbLoadW(b->adj[3]), a12 = tbLoadW(b->adj[4]), a22 = tbLoadW(b->adj[5]);
	tbVec3W x = {
	    tbKeepW(valid, tbMulW(inv, tbAddW(tbAddW(tbMulW(a00, target.x), tbMulW(a01, target.y)),
	                                      tbMulW(a02, target.z)))),
	    tbKeepW(valid, tbMulW(inv, tbAddW(tbAddW(tbMulW(a01, target.x), tbMulW(a11, target.y)),
	                                      tbMulW(a12, target.z)))),
	    tbKeepW(valid, tbMulW(inv, tbAddW(tbAddW(tbMulW(a02, target.x), tbMulW(a12, target.y)),
	                                      tbMulW(a22, target.z))))};
	// P = -massScale x - impulseScale accumulated.
	tbFloatW negMass = tbSubW(zero, massScale);
	tbVec3W acc = tbLoadVec3W(b->impulse[0]);
	tbVec3W P = {tbSubW(tbMulW(negMass, x.x), tbMulW(impulseScale, acc.x)),
	             tbSubW(tbMulW(negMass, x.y), tbMulW(impulseScale, acc.y)),
	             tbSubW(tbMulW(negMass, x.z), tbMulW(impulseScale, acc.z))};
	acc.x = tbAddW(acc.x, P.x);
	acc.y = tbAddW(acc.y, P.y);
	acc.z = tbAddW(acc.z, P.z);
	tbStoreVec3W(b->impulse[0], acc);
	tbBallApplyW(b, &p, vA, wA, vB, wB, P);
}

// One side's geometric stiffness (tbArmStiffness) at the arm r under the force F, its nine
// entries by columns; zero where F does not pull along the arm.
static inline void tbArmStiffnessW(tbVec3W r, tbVec3W F, tbFloatW* e)
{
	tbFloatW zero = tbZeroW();
	tbFloatW rf = tbDotW(r, F), r2 = tbDotW(r, r);
	tbFloatW pulls = tbAndMaskW(tbGreaterW(rf, zero), tbGreaterW(r2, tbSplatW(1e-12f)));
	tbFloatW s = tbDivW(tbSubW(zero, rf), r2);
	tbFloatW rk[3] = {r.x, r.y, r.z};
	for (int c = 0; c < 3; ++c) {
		for (int k = 0; k < 3; ++k) {
			// rf 1 + (r r^T)(-rf / r2), as tbMat3Add(rf 1, tbOuter(r, r) s) sums it.
			tbFloatW outer = tbMulW(tbMulW(rk[k], rk[c]), s);
			e[3 * c + k] = tbKeepW(pulls, tbAddW(k == c ? rf : zero, outer));
		}
	}
}

void tbBallBatchAddStiffness(const tbBallBatch* b, mat3s* stiffness)
{
	// tbJointAddStiffness: -P at A's anchor, P at B's, from the impulses of the last substep.
	tbVec3W P = tbLoadVec3W(b->impulse[0]);
	tbFloatW minusOne = tbSplatW(-1.0f);
	tbVec3W negP = {tbMulW(P.x, minusOne), tbMulW(P.y, minusOne), tbMulW(P.z, minusOne)};
	tbFloatW eA[9], eB[9];
	tbArmStiffnessW(tbLoadVec3W(b->rA[0]), negP, eA);
	tbArmStiffnessW(tbLoadVec3W(b->rB[0]), P, eB);
	_Alignas(32) float a[9][TB_SIMD_WIDTH], bb[9][TB_SIMD_WIDTH];
	for (int k = 0; k < 9; ++k) {
		tbStoreW(a[k], eA[k]);
		tbStoreW(bb[k], eB[k]);
	}
	for (int lane = 0; lane < TB_SIMD_WIDTH && b->record[lane] >= 0; ++lane) {
		if (b->mA[lane] > 0.0f) {
			float* m = &stiffness[b->indexA[lane]].col[0].x;
			for (int k = 0; k < 9; ++k) {
				m[k] += a[k][lane];
			}
		}
		if (b->mB[lane] > 0.0f) {
			float* m = &stiffness[b->indexB[lane]].col[0].x;
			for (int k = 0; k < 9; ++k) {
				m[k] += bb[k][lane];
			}
		}
	}
}

void tbBallBatchStore(const tbBallBatch* b, const tbJointRecord* records)
{
	for (int lane = 0; lane < TB_SIMD_WIDTH && b->record[lane] >= 0; ++lane) {
		tbJoint* j = records[b->record[lane]].joint;
		for (int k = 0; k < 3; ++k) {
			j->linearImpulse.raw[k] = b->impulse[k][lane];
		}
	}
}
