// Rigid transforms: quaternion + position helpers, Euler XYZ (Casalino 2021 appendix B), double
// poses.
#include "tumble/transform.h"
#include "tumble/transform_internal.h"

#include <math.h>

tbTransform tbTransformIdentity(void)
{
	tbTransform xf = {{{0.0f, 0.0f, 0.0f}}, {{0.0f, 0.0f, 0.0f, 1.0f}}};
	return xf;
}

tbTransform tbMakeTransform(vec3s p, versors q)
{
	tbTransform xf = {p, glms_quat_normalize(q)};
	return xf;
}

tbTransform tbTransformFromMatrix(vec3s p, mat3s m)
{
	// Gram-Schmidt the columns first so a slightly drifted matrix still gives a unit quaternion.
	vec3s x = glms_vec3_normalize(m.col[0]);
	vec3s y = glms_vec3_sub(m.col[1], glms_vec3_scale(x, glms_vec3_dot(x, m.col[1])));
	y = glms_vec3_normalize(y);
	vec3s z = glms_vec3_cross(x, y);
	mat3s r;
	r.col[0] = x;
	r.col[1] = y;
	r.col[2] = z;
	return tbMakeTransform(p, glms_mat3_quat(r));
}

mat3s tbMatrixFromEulerXYZ(float gx, float gy, float gz)
{
	// Casalino 2021 eq. 38: R = Rx * Ry * Rz.
	tbCosSin x = tbComputeCosSin(gx), y = tbComputeCosSin(gy), z = tbComputeCosSin(gz);
	float cx = x.cosine, sx = x.sine, cy = y.cosine, sy = y.sine, cz = z.cosine, sz = z.sine;
	mat3s rx = {{{1.0f, 0.0f, 0.0f}, {0.0f, cx, sx}, {0.0f, -sx, cx}}}; // column-major
	mat3s ry = {{{cy, 0.0f, -sy}, {0.0f, 1.0f, 0.0f}, {sy, 0.0f, cy}}};
	mat3s rz = {{{cz, sz, 0.0f}, {-sz, cz, 0.0f}, {0.0f, 0.0f, 1.0f}}};
	return glms_mat3_mul(glms_mat3_mul(rx, ry), rz);
}

versors tbQuatFromEulerXYZ(float gx, float gy, float gz)
{
	// Each half angle's cosine and sine from tbComputeCosSin, the same bits on every platform
	// (cglm's glms_quatv takes the C library's).
	tbCosSin hx = tbComputeCosSin(0.5f * gx), hy = tbComputeCosSin(0.5f * gy);
	tbCosSin hz = tbComputeCosSin(0.5f * gz);
	versors qx = {{hx.sine, 0.0f, 0.0f, hx.cosine}};
	versors qy = {{0.0f, hy.sine, 0.0f, hy.cosine}};
	versors qz = {{0.0f, 0.0f, hz.sine, hz.cosine}};
	return glms_quat_normalize(glms_quat_mul(glms_quat_mul(qx, qy), qz));
}

vec3s tbRotateVector(versors q, vec3s v)
{
	return tbRotateInline(q, v);
}

vec3s tbInvRotateVector(versors q, vec3s v)
{
	return tbInvRotateInline(q, v);
}

vec3s tbTransformPoint(tbTransform xf, vec3s v)
{
	return tbTransformPointInline(xf, v);
}

vec3s tbInvTransformPoint(tbTransform xf, vec3s v)
{
	return tbInvTransformPointInline(xf, v);
}

tbTransform tbMulTransforms(tbTransform a, tbTransform b)
{
	tbTransform xf;
	xf.q = glms_quat_normalize(glms_quat_mul(a.q, b.q));
	xf.p = tbTransformPoint(a, b.p);
	return xf;
}

// Double-precision quaternion helpers, w x y z order.
static void tbQuatNormalized(const double in[4], double out[4])
{
	double n = sqrt(in[0] * in[0] + in[1] * in[1] + in[2] * in[2] + in[3] * in[3]);
	double s = n > 0.0 ? 1.0 / n : 0.0;
	out[0] = n > 0.0 ? in[0] * s : 1.0;
	out[1] = in[1] * s;
	out[2] = in[2] * s;
	out[3] = in[3] * s;
}

static void tbQuatRotated(const double q[4], const double v[3], double out[3])
{
	double w = q[0], x = q[1], y = q[2], z = q[3];
	double tx = 2.0 * (y * v[2] - z * v[1]);
	double ty = 2.0 * (z * v[0] - x * v[2]);
	double tz = 2.0 * (x * v[1] - y * v[0]);
	out[0] = v[0] + w * tx + (y * tz - z * ty);
	out[1] = v[1] + w * ty + (z * tx - x * tz);
	out[2] = v[2] + w * tz + (x * ty - y * tx);
}

static void tbQuatMultiplied(const double a[4], const double b[4], double out[4])
{
	out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
	out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
	out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
	out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

tbTransform tbRelativeTransformd(const tbTransformd* a, const tbTransformd* b)
{
	double qa[4], qb[4], qaInv[4], q[4], d[3], p[3];
	tbQuatNormalized(a->q, qa);
	tbQuatNormalized(b->q, qb);
	qaInv[0] = qa[0];
	qaInv[1] = -qa[1];
	qaInv[2] = -qa[2];
	qaInv[3] = -qa[3];
	tbQuatMultiplied(qaInv, qb, q);
	tbQuatNormalized(q, q);
	d[0] = b->p[0] - a->p[0];
	d[1] = b->p[1] - a->p[1];
	d[2] = b->p[2] - a->p[2];
	tbQuatRotated(qaInv, d, p);
	tbTransform xf;
	xf.p = (vec3s){{(float)p[0], (float)p[1], (float)p[2]}};
	xf.q = (versors){{(float)q[1], (float)q[2], (float)q[3], (float)q[0]}};
	xf.q = glms_quat_normalize(xf.q);
	return xf;
}

tbTransform tbInvMulTransforms(tbTransform a, tbTransform b)
{
	tbTransformd da = {{(double)a.p.x, (double)a.p.y, (double)a.p.z},
	                   {(double)a.q.w, (double)a.q.x, (double)a.q.y, (double)a.q.z}};
	tbTransformd db = {{(double)b.p.x, (double)b.p.y, (double)b.p.z},
	                   {(double)b.q.w, (double)b.q.x, (double)b.q.y, (double)b.q.z}};
	return tbRelativeTransformd(&da, &db);
}

void tbRotateVectord(const tbTransformd* xf, vec3s local, double out[3])
{
	double q[4];
	double v[3] = {(double)local.x, (double)local.y, (double)local.z};
	tbQuatNormalized(xf->q, q);
	tbQuatRotated(q, v, out);
}

void tbTransformPointd(const tbTransformd* xf, vec3s local, double out[3])
{
	tbRotateVectord(xf, local, out);
	out[0] += xf->p[0];
	out[1] += xf->p[1];
	out[2] += xf->p[2];
}
