// Plain-C interface between the narrow-phase benchmark and its peers (libccd in C, Bullet in C++).
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

/// Shapes of docs/query-format.md, axis along local y.
typedef enum tbPeerShapeType
{
	tb_peerSphere,
	tb_peerBox,
	tb_peerCapsule,
	tb_peerCylinder,
	tb_peerCone,
	tb_peerHull,
	tb_peerTriangle,
} tbPeerShapeType;

/// A shape and its world pose in double, independent of Tumble's types.
typedef struct tbPeerShape
{
	tbPeerShapeType type;
	double params[3];     ///< sphere r; box hx hy hz; capsule/cylinder/cone r hh
	const double* points; ///< hull vertices or triangle corners, x y z each (borrowed)
	int pointCount;
	double position[3];
	double quaternion[4]; ///< unit, w x y z
} tbPeerShape;

/// One peer answer, world frame, Tumble's conventions: sd < 0 when overlapping, normal from A to B.
typedef struct tbPeerAnswer
{
	int hit;         ///< 1 overlapping or touching, 0 apart, -1 failed
	int hasDistance; ///< sd and normal are meaningful
	double sd;
	double normal[3];
	double pointA[3]; ///< witness points where the method gives them (not judged here)
	double pointB[3];
} tbPeerAnswer;

#ifdef TB_HAVE_CCD
typedef struct tbCcdCase tbCcdCase;
tbCcdCase* tbCcdCreateCase(const tbPeerShape* a, const tbPeerShape* b);
void tbCcdDestroyCase(tbCcdCase* ccdCase);
/// ccdGJKIntersect: boolean only.
void tbCcdGjkIntersect(const tbCcdCase* ccdCase, tbPeerAnswer* answer);
/// ccdGJKPenetration: depth and direction when overlapping, nothing when apart.
void tbCcdGjkPenetration(const tbCcdCase* ccdCase, tbPeerAnswer* answer);
/// ccdMPRPenetration: as above with MPR.
void tbCcdMprPenetration(const tbCcdCase* ccdCase, tbPeerAnswer* answer);
#endif

#ifdef TB_HAVE_BULLET
typedef struct tbBulletCase tbBulletCase;
tbBulletCase* tbBulletCreateCase(const tbPeerShape* a, const tbPeerShape* b);
void tbBulletDestroyCase(tbBulletCase* bulletCase);
/// btGjkEpaSolver2::Distance: distance when apart, nothing when overlapping.
void tbBulletDistance(const tbBulletCase* bulletCase, tbPeerAnswer* answer);
/// btGjkEpaSolver2::SignedDistance: distance or minus the depth.
void tbBulletSignedDistance(const tbBulletCase* bulletCase, tbPeerAnswer* answer);
/// BT_BULLET_VERSION, e.g. 324.
int tbBulletVersion(void);
#endif

#ifdef __cplusplus
}
#endif
