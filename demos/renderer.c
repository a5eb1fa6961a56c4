// The 3D renderer: per-mesh instance queues drawn with glDrawElementsInstanced, one directional
// light with a PCF shadow map, a procedural ground grid, a sky gradient and a line batch.
#include "renderer.h"

#include "gl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DM_MAX_MESHES 64
#define DM_SHADOW_SIZE 2048
#define DM_INSTANCE_FLOATS 20 // model matrix (16) + colour (4)

typedef struct dmInstances
{
	float* data;
	int count, capacity;
} dmInstances;

typedef struct dmGpuMesh
{
	GLuint vao, vertexBuffer, indexBuffer, instanceBuffer;
	int indexCount;
	bool used;
	dmInstances opaque, transparent;
} dmGpuMesh;

typedef struct dmRenderer
{
	GLuint meshProgram, depthProgram, groundProgram, skyProgram, lineProgram;
	GLuint emptyVao, lineVao, lineBuffer;
	GLuint shadowFbo, shadowTexture;
	dmGpuMesh meshes[DM_MAX_MESHES];
	int sphere, cylinder, cone;
	float* lines; // x y z r g b a per vertex
	int lineCount, lineCapacity;
	dmView view;
	vec3s lightDir; // the direction light travels, unit
} dmRenderer;

static dmRenderer s_r;

// ---------------------------------------------------------------------------------------------
// Shaders

static const char* s_meshVertex =
    "#version 330 core\n"
    "layout(location = 0) in vec3 aPosition;\n"
    "layout(location = 1) in vec3 aNormal;\n"
    "layout(location = 2) in vec4 aModel0;\n"
    "layout(location = 3) in vec4 aModel1;\n"
    "layout(location = 4) in vec4 aModel2;\n"
    "layout(location = 5) in vec4 aModel3;\n"
    "layout(location = 6) in vec4 aColor;\n"
    "uniform mat4 uViewProjection;\n"
    "uniform mat4 uLightViewProjection;\n"
    "out vec3 vWorld;\n"
    "out vec3 vNormal;\n"
    "out vec4 vColor;\n"
    "out vec4 vLight;\n"
    "void main() {\n"
    "  mat4 model = mat4(aModel0, aModel1, aModel2, aModel3);\n"
    "  vec4 world = model * vec4(aPosition, 1.0);\n"
    "  vWorld = world.xyz;\n"
    // Non-uniform scales (segments, ellipsoids) need the inverse transpose for normals.
    "  vNormal = transpose(inverse(mat3(model))) * aNormal;\n"
    "  vColor = aColor;\n"
    "  vLight = uLightViewProjection * world;\n"
    "  gl_Position = uViewProjection * world;\n"
    "}\n";

// Shared lighting: hemisphere ambient, Lambert diffuse with a 3x3 PCF shadow, Blinn specular.
#define DM_LIGHTING_GLSL                                                                           \
	"uniform vec3 uLightDir;\n"                                                                    \
	"uniform vec3 uEye;\n"                                                                         \
	"uniform sampler2DShadow uShadow;\n"                                                           \
	"uniform int uShadows;\n"                                                                      \
	"float shadowFactor(vec4 lightPos, float bias) {\n"                                            \
	"  if (uShadows == 0) return 1.0;\n"                                                           \
	"  vec3 p = lightPos.xyz / lightPos.w * 0.5 + 0.5;\n"                                          \
	"  if (p.z > 1.0 || p.x < 0.0 || p.x > 1.0 || p.y < 0.0 || p.y > 1.0) return 1.0;\n"           \
	"  vec2 texel = 1.0 / vec2(textureSize(uShadow, 0));\n"                                        \
	"  float s = 0.0;\n"                                                                           \
	"  for (int x = -1; x <= 1; ++x)\n"                                                            \
	"    for (int y = -1; y <= 1; ++y)\n"                                                          \
	"      s += texture(uShadow, vec3(p.xy + vec2(x, y) * texel, p.z - bias));\n"                  \
	"  return s / 9.0;\n"                                                                          \
	"}\n"                                                                                          \
	"vec3 shade(vec3 base, vec3 n, vec3 world, vec4 lightPos) {\n"                                 \
	"  vec3 l = -uLightDir;\n"                                                                     \
	"  float ndl = dot(n, l);\n"                                                                   \
	"  float lit = ndl > 0.0 ? shadowFactor(lightPos, 0.0015) : 0.0;\n"                            \
	"  float diffuse = max(ndl, 0.0) * lit;\n"                                                     \
	"  vec3 ambient = mix(vec3(0.32, 0.29, 0.27), vec3(0.62, 0.70, 0.82), 0.5 + 0.5 * n.y);\n"     \
	"  vec3 h = normalize(l + normalize(uEye - world));\n"                                         \
	"  float spec = pow(max(dot(n, h), 0.0), 48.0) * lit;\n"                                       \
	"  return base * (0.55 * ambient + 0.75 * diffuse) + 0.22 * spec;\n"                           \
	"}\n"

static const char* s_meshFragment =
    "#version 330 core\n"
    "in vec3 vWorld;\n"
    "in vec3 vNormal;\n"
    "in vec4 vColor;\n"
    "in vec4 vLight;\n"
    "out vec4 fragColor;\n" DM_LIGHTING_GLSL "void main() {\n"
    "  vec3 n = normalize(vNormal);\n"
    "  if (!gl_FrontFacing) n = -n;\n"
    "  fragColor = vec4(shade(vColor.rgb, n, vWorld, vLight), vColor.a);\n"
    "}\n";

static const char* s_depthVertex =
    "#version 330 core\n"
    "layout(location = 0) in vec3 aPosition;\n"
    "layout(location = 2) in vec4 aModel0;\n"
    "layout(location = 3) in vec4 aModel1;\n"
    "layout(location = 4) in vec4 aModel2;\n"
    "layout(location = 5) in vec4 aModel3;\n"
    "layout(location = 6) in vec4 aColor;\n"
    "uniform mat4 uLightViewProjection;\n"
    "out float vAlpha;\n"
    "void main() {\n"
    "  vAlpha = aColor.a;\n"
    "  mat4 model = mat4(aModel0, aModel1, aModel2, aModel3);\n"
    "  gl_Position = uLightViewProjection * model * vec4(aPosition, 1.0);\n"
    "}\n";

// Faint see-through things (A - B, polytopes) cast no shadow; half-opaque bodies do.
static const char* s_depthFragment = "#version 330 core\n"
                                     "in float vAlpha;\n"
                                     "void main() { if (vAlpha < 0.5) discard; }\n";

// The ground: a quad of half size uExtent at height uY, drawn from gl_VertexID.
static const char* s_groundVertex =
    "#version 330 core\n"
    "uniform mat4 uViewProjection;\n"
    "uniform mat4 uLightViewProjection;\n"
    "uniform float uExtent;\n"
    "uniform float uY;\n"
    "uniform vec3 uCentre;\n"
    "out vec3 vWorld;\n"
    "out vec4 vLight;\n"
    "void main() {\n"
    "  vec2 corner = vec2((gl_VertexID & 1) != 0 ? 1.0 : -1.0, (gl_VertexID & 2) != 0 ? 1.0 : "
    "-1.0);\n"
    "  vec3 world = vec3(uCentre.x + corner.x * uExtent, uY, uCentre.z + corner.y * uExtent);\n"
    "  vWorld = world;\n"
    "  vLight = uLightViewProjection * vec4(world, 1.0);\n"
    "  gl_Position = uViewProjection * vec4(world, 1.0);\n"
    "}\n";

static const char* s_groundFragment =
    "#version 330 core\n"
    "in vec3 vWorld;\n"
    "in vec4 vLight;\n"
    "uniform vec3 uCentre;\n"
    "uniform float uExtent;\n"
    "out vec4 fragColor;\n" DM_LIGHTING_GLSL "float gridLine(vec2 p, float spacing) {\n"
    // Anti-aliased lines one pixel wide whatever the distance (fwidth).
    "  vec2 g = abs(fract(p / spacing - 0.5) - 0.5) / fwidth(p / spacing);\n"
    "  return 1.0 - min(min(g.x, g.y), 1.0);\n"
    "}\n"
    "void main() {\n"
    "  vec3 base = shade(vec3(0.74, 0.74, 0.72), vec3(0.0, 1.0, 0.0), vWorld, vLight);\n"
    "  float minor = gridLine(vWorld.xz, 1.0);\n"
    "  float major = gridLine(vWorld.xz, 5.0);\n"
    "  vec3 c = mix(base, base * 0.62, max(minor * 0.6, major));\n"
    "  float fade = clamp(1.0 - length(vWorld.xz - uCentre.xz) / uExtent, 0.0, 1.0);\n"
    "  fragColor = vec4(c, smoothstep(0.0, 0.35, fade));\n"
    "}\n";

// A full-viewport triangle; the gradient runs from the horizon colour up to the zenith colour.
static const char* s_skyVertex = "#version 330 core\n"
                                 "out vec2 vUv;\n"
                                 "void main() {\n"
                                 "  vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);\n"
                                 "  vUv = p;\n"
                                 "  gl_Position = vec4(p * 2.0 - 1.0, 0.9999, 1.0);\n"
                                 "}\n";

static const char* s_skyFragment =
    "#version 330 core\n"
    "in vec2 vUv;\n"
    "uniform vec3 uTop;\n"
    "uniform vec3 uBottom;\n"
    "out vec4 fragColor;\n"
    "void main() {\n"
    "  fragColor = vec4(mix(uBottom, uTop, smoothstep(0.0, 1.0, vUv.y)), 1.0);\n"
    "}\n";

static const char* s_lineVertex = "#version 330 core\n"
                                  "layout(location = 0) in vec3 aPosition;\n"
                                  "layout(location = 1) in vec4 aColor;\n"
                                  "uniform mat4 uViewProjection;\n"
                                  "out vec4 vColor;\n"
                                  "void main() {\n"
                                  "  vColor = aColor;\n"
                                  "  gl_Position = uViewProjection * vec4(aPosition, 1.0);\n"
                                  "}\n";

static const char* s_lineFragment = "#version 330 core\n"
                                    "in vec4 vColor;\n"
                                    "out vec4 fragColor;\n"
                                    "void main() { fragColor = vColor; }\n";

static GLuint dmCompile(GLenum type, const char* source)
{
	GLuint shader = glCreateShader(type);
	glShaderSource(shader, 1, &source, NULL);
	glCompileShader(shader);
	GLint ok = 0;
	glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		char log[2048];
		glGetShaderInfoLog(shader, sizeof log, NULL, log);
		fprintf(stderr, "tumble-demo: shader: %s\n", log);
		glDeleteShader(shader);
		return 0;
	}
	return shader;
}

unsigned dmLinkProgram(const char* vertex, const char* fragment)
{
	GLuint vs = dmCompile(GL_VERTEX_SHADER, vertex);
	GLuint fs = dmCompile(GL_FRAGMENT_SHADER, fragment);
	if (vs == 0 || fs == 0) {
		glDeleteShader(vs); // 0 is ignored: the one that compiled is not leaked
		glDeleteShader(fs);
		return 0;
	}
	GLuint program = glCreateProgram();
	glAttachShader(program, vs);
	glAttachShader(program, fs);
	glLinkProgram(program);
	glDeleteShader(vs);
	glDeleteShader(fs);
	GLint ok = 0;
	glGetProgramiv(program, GL_LINK_STATUS, &ok);
	if (!ok) {
		char log[2048];
		glGetProgramInfoLog(program, sizeof log, NULL, log);
		fprintf(stderr, "tumble-demo: program: %s\n", log);
		glDeleteProgram(program);
		return 0;
	}
	return program;
}

static void dmSetMatrix(GLuint program, const char* name, mat4s m)
{
	glUniformMatrix4fv(glGetUniformLocation(program, name), 1, GL_FALSE, &m.raw[0][0]);
}

static void dmSetVec3(GLuint program, const char* name, vec3s v)
{
	glUniform3f(glGetUniformLocation(program, name), v.x, v.y, v.z);
}

// ---------------------------------------------------------------------------------------------
// Meshes

static void dmUpload(dmGpuMesh* mesh, const dmMeshData* data)
{
	glBindVertexArray(mesh->vao);
	glBindBuffer(GL_ARRAY_BUFFER, mesh->vertexBuffer);
	glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * 6 * (size_t)data->vertexCount),
	             data->vertices, GL_STATIC_DRAW);
	glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh->indexBuffer);
	glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof(unsigned) * (size_t)data->indexCount),
	             data->indices, GL_STATIC_DRAW);
	mesh->indexCount = data->indexCount;
	glBindVertexArray(0);
}

int dmRenderer_CreateMesh(const dmMeshData* data)
{
	int id = -1;
	for (int i = 0; i < DM_MAX_MESHES && id < 0; ++i) {
		id = s_r.meshes[i].used ? -1 : i;
	}
	if (id < 0) {
		return -1;
	}
	dmGpuMesh* mesh = s_r.meshes + id;
	memset(mesh, 0, sizeof *mesh);
	mesh->used = true;
	glGenVertexArrays(1, &mesh->vao);
	glGenBuffers(1, &mesh->vertexBuffer);
	glGenBuffers(1, &mesh->indexBuffer);
	glGenBuffers(1, &mesh->instanceBuffer);
	glBindVertexArray(mesh->vao);
	glBindBuffer(GL_ARRAY_BUFFER, mesh->vertexBuffer);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void*)0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void*)(3 * sizeof(float)));
	glBindBuffer(GL_ARRAY_BUFFER, mesh->instanceBuffer);
	for (int k = 0; k < 5; ++k) {
		glEnableVertexAttribArray((GLuint)(2 + k));
		glVertexAttribPointer((GLuint)(2 + k), 4, GL_FLOAT, GL_FALSE,
		                      DM_INSTANCE_FLOATS * sizeof(float),
		                      (void*)(4 * (size_t)k * sizeof(float)));
		glVertexAttribDivisor((GLuint)(2 + k), 1);
	}
	glBindVertexArray(0);
	dmUpload(mesh, data);
	return id;
}

void dmRenderer_UpdateMesh(int id, const dmMeshData* data)
{
	if (id >= 0 && id < DM_MAX_MESHES && s_r.meshes[id].used) {
		dmUpload(s_r.meshes + id, data);
	}
}

void dmRenderer_DestroyMesh(int id)
{
	if (id < 0 || id >= DM_MAX_MESHES || !s_r.meshes[id].used) {
		return;
	}
	dmGpuMesh* mesh = s_r.meshes + id;
	glDeleteVertexArrays(1, &mesh->vao);
	glDeleteBuffers(1, &mesh->vertexBuffer);
	glDeleteBuffers(1, &mesh->indexBuffer);
	glDeleteBuffers(1, &mesh->instanceBuffer);
	free(mesh->opaque.data);
	free(mesh->transparent.data);
	memset(mesh, 0, sizeof *mesh);
}

int dmRenderer_SphereMesh(void)
{
	return s_r.sphere;
}

static int dmBuiltInMesh(tbGeometry shape, float shiftY)
{
	dmMeshData data = {0};
	int id = -1;
	if (dmBuildShapeMesh(&shape, 24, &data)) {
		for (int i = 0; i < data.vertexCount; ++i) {
			data.vertices[6 * i + 1] += shiftY;
		}
		id = dmRenderer_CreateMesh(&data);
	}
	dmMeshData_Free(&data);
	return id;
}

bool dmRenderer_Init(void)
{
	memset(&s_r, 0, sizeof s_r);
	s_r.meshProgram = dmLinkProgram(s_meshVertex, s_meshFragment);
	s_r.depthProgram = dmLinkProgram(s_depthVertex, s_depthFragment);
	s_r.groundProgram = dmLinkProgram(s_groundVertex, s_groundFragment);
	s_r.skyProgram = dmLinkProgram(s_skyVertex, s_skyFragment);
	s_r.lineProgram = dmLinkProgram(s_lineVertex, s_lineFragment);
	if (s_r.meshProgram == 0 || s_r.depthProgram == 0 || s_r.groundProgram == 0 ||
	    s_r.skyProgram == 0 || s_r.lineProgram == 0) {
		return false;
	}
	glGenVertexArrays(1, &s_r.emptyVao);
	glGenVertexArrays(1, &s_r.lineVao);
	glGenBuffers(1, &s_r.lineBuffer);
	glBindVertexArray(s_r.lineVao);
	glBindBuffer(GL_ARRAY_BUFFER, s_r.lineBuffer);
	glEnableVertexAttribArray(0);
	glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 7 * sizeof(float), (void*)0);
	glEnableVertexAttribArray(1);
	glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 7 * sizeof(float), (void*)(3 * sizeof(float)));
	glBindVertexArray(0);

	// The shadow map: a depth texture compared in hardware (sampler2DShadow) for PCF.
	glGenTextures(1, &s_r.shadowTexture);
	glBindTexture(GL_TEXTURE_2D, s_r.shadowTexture);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, DM_SHADOW_SIZE, DM_SHADOW_SIZE, 0,
	             GL_DEPTH_COMPONENT, GL_FLOAT, NULL);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
	glGenFramebuffers(1, &s_r.shadowFbo);
	glBindFramebuffer(GL_FRAMEBUFFER, s_r.shadowFbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, s_r.shadowTexture,
	                       0);
	glDrawBuffer(GL_NONE);
	glReadBuffer(GL_NONE);
	bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	if (!complete) {
		fprintf(stderr, "tumble-demo: shadow framebuffer incomplete; shadows off\n");
		glDeleteFramebuffers(1, &s_r.shadowFbo);
		s_r.shadowFbo = 0;
	}

	s_r.sphere = dmBuiltInMesh(tbMakeSphere(1.0f), 0.0f);
	// Segments and arrow heads stand on y = 0 and reach y = 1.
	s_r.cylinder = dmBuiltInMesh(tbMakeCylinder(1.0f, 0.5f), 0.5f);
	s_r.cone = dmBuiltInMesh(tbMakeCone(1.0f, 0.5f), 0.5f);
	s_r.lightDir = glms_vec3_normalize((vec3s){{-0.45f, -1.0f, -0.3f}});
	return s_r.sphere >= 0 && s_r.cylinder >= 0 && s_r.cone >= 0;
}

void dmRenderer_Shutdown(void)
{
	for (int i = 0; i < DM_MAX_MESHES; ++i) {
		dmGpuMesh* mesh = s_r.meshes + i;
		if (!mesh->used) {
			continue;
		}
		glDeleteVertexArrays(1, &mesh->vao);
		glDeleteBuffers(1, &mesh->vertexBuffer);
		glDeleteBuffers(1, &mesh->indexBuffer);
		glDeleteBuffers(1, &mesh->instanceBuffer);
		free(mesh->opaque.data);
		free(mesh->transparent.data);
	}
	glDeleteProgram(s_r.meshProgram);
	glDeleteProgram(s_r.depthProgram);
	glDeleteProgram(s_r.groundProgram);
	glDeleteProgram(s_r.skyProgram);
	glDeleteProgram(s_r.lineProgram);
	glDeleteVertexArrays(1, &s_r.emptyVao);
	glDeleteVertexArrays(1, &s_r.lineVao);
	glDeleteBuffers(1, &s_r.lineBuffer);
	if (s_r.shadowFbo != 0) {
		glDeleteFramebuffers(1, &s_r.shadowFbo);
	}
	glDeleteTextures(1, &s_r.shadowTexture);
	free(s_r.lines);
	memset(&s_r, 0, sizeof s_r);
}

// ---------------------------------------------------------------------------------------------
// Queues

static void dmPush(dmInstances* list, mat4s model, vec4s color)
{
	if (list->count == list->capacity) {
		int grown = list->capacity < 64 ? 64 : 2 * list->capacity;
		float* larger = realloc(list->data, sizeof(float) * DM_INSTANCE_FLOATS * (size_t)grown);
		if (larger == NULL) {
			return; // drop the instance: a missing shape beats a crashed demo
		}
		list->data = larger;
		list->capacity = grown;
	}
	float* out = list->data + DM_INSTANCE_FLOATS * list->count;
	memcpy(out, &model.raw[0][0], 16 * sizeof(float));
	out[16] = color.r, out[17] = color.g, out[18] = color.b, out[19] = color.a;
	list->count += 1;
}

void dmRenderer_Mesh(int id, mat4s model, vec4s color)
{
	if (id < 0 || id >= DM_MAX_MESHES || !s_r.meshes[id].used) {
		return;
	}
	dmGpuMesh* mesh = s_r.meshes + id;
	dmPush(color.a < 1.0f ? &mesh->transparent : &mesh->opaque, model, color);
}

void dmRenderer_Point(vec3s p, float radius, vec4s color)
{
	mat4s m = glms_translate(glms_mat4_identity(), p);
	m = glms_scale(m, (vec3s){{radius, radius, radius}});
	dmRenderer_Mesh(s_r.sphere, m, color);
}

// A frame whose y axis runs from a to b, x and z scaled by radius.
static mat4s dmAlong(vec3s a, vec3s b, float radius)
{
	vec3s axis = glms_vec3_sub(b, a);
	float len = glms_vec3_norm(axis);
	vec3s y = len > 0.0f ? glms_vec3_scale(axis, 1.0f / len) : (vec3s){{0.0f, 1.0f, 0.0f}};
	vec3s helper = fabsf(y.y) < 0.9f ? (vec3s){{0.0f, 1.0f, 0.0f}} : (vec3s){{1.0f, 0.0f, 0.0f}};
	vec3s x = glms_vec3_normalize(glms_vec3_cross(helper, y));
	vec3s z = glms_vec3_cross(x, y);
	mat4s m = glms_mat4_identity();
	for (int i = 0; i < 3; ++i) {
		m.raw[0][i] = x.raw[i] * radius;
		m.raw[1][i] = y.raw[i] * len;
		m.raw[2][i] = z.raw[i] * radius;
		m.raw[3][i] = a.raw[i];
	}
	return m;
}

void dmRenderer_Segment(vec3s a, vec3s b, float radius, vec4s color)
{
	dmRenderer_Mesh(s_r.cylinder, dmAlong(a, b, radius), color);
}

void dmRenderer_Arrow(vec3s from, vec3s to, float radius, vec4s color)
{
	vec3s d = glms_vec3_sub(to, from);
	float len = glms_vec3_norm(d);
	if (len <= 0.0f) {
		return;
	}
	// The head takes at most a third of the arrow, so short arrows still show a shaft.
	float head = fminf(6.0f * radius, len / 3.0f);
	vec3s neck = glms_vec3_add(from, glms_vec3_scale(d, (len - head) / len));
	dmRenderer_Segment(from, neck, radius, color);
	dmRenderer_Mesh(s_r.cone, dmAlong(neck, to, 2.5f * radius), color);
}

void dmRenderer_Line(vec3s a, vec3s b, vec4s color)
{
	if (s_r.lineCount + 2 > s_r.lineCapacity) {
		int grown = s_r.lineCapacity < 256 ? 256 : 2 * s_r.lineCapacity;
		float* larger = realloc(s_r.lines, sizeof(float) * 7 * (size_t)grown);
		if (larger == NULL) {
			return;
		}
		s_r.lines = larger;
		s_r.lineCapacity = grown;
	}
	vec3s p[2] = {a, b};
	for (int k = 0; k < 2; ++k) {
		float* v = s_r.lines + 7 * s_r.lineCount++;
		v[0] = p[k].x, v[1] = p[k].y, v[2] = p[k].z;
		v[3] = color.r, v[4] = color.g, v[5] = color.b, v[6] = color.a;
	}
}

mat4s dmModelMatrix(tbTransform xf)
{
	mat4s m = glms_quat_mat4(xf.q);
	m.raw[3][0] = xf.p.x;
	m.raw[3][1] = xf.p.y;
	m.raw[3][2] = xf.p.z;
	return m;
}

// ---------------------------------------------------------------------------------------------
// Drawing

void dmRenderer_Clear(int width, int height)
{
	glDisable(GL_SCISSOR_TEST);
	glViewport(0, 0, width, height);
	glClearColor(0.16f, 0.17f, 0.20f, 1.0f);
	glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

void dmRenderer_Begin(const dmView* view)
{
	s_r.view = *view;
	s_r.lineCount = 0;
	for (int i = 0; i < DM_MAX_MESHES; ++i) {
		s_r.meshes[i].opaque.count = 0;
		s_r.meshes[i].transparent.count = 0;
	}
}

static mat4s dmLightViewProjection(void)
{
	float r = s_r.view.focusRadius > 0.0f ? s_r.view.focusRadius : 10.0f;
	vec3s eye = glms_vec3_sub(s_r.view.focus, glms_vec3_scale(s_r.lightDir, 3.0f * r));
	mat4s view = glms_lookat(eye, s_r.view.focus, (vec3s){{0.0f, 1.0f, 0.0f}});
	mat4s projection = glms_ortho(-r, r, -r, r, 0.1f * r, 6.0f * r);
	return glms_mat4_mul(projection, view);
}

static void dmDrawInstances(dmGpuMesh* mesh, const dmInstances* list)
{
	if (list->count == 0) {
		return;
	}
	glBindVertexArray(mesh->vao);
	glBindBuffer(GL_ARRAY_BUFFER, mesh->instanceBuffer);
	// Orphan and refill: the driver need not wait for last frame's draw.
	glBufferData(GL_ARRAY_BUFFER,
	             (GLsizeiptr)(sizeof(float) * DM_INSTANCE_FLOATS * (size_t)list->count), list->data,
	             GL_STREAM_DRAW);
	glDrawElementsInstanced(GL_TRIANGLES, mesh->indexCount, GL_UNSIGNED_INT, (void*)0, list->count);
}

static void dmShadowPass(mat4s lightViewProjection)
{
	GLint previous[4];
	glGetIntegerv(GL_VIEWPORT, previous);
	glBindFramebuffer(GL_FRAMEBUFFER, s_r.shadowFbo);
	glViewport(0, 0, DM_SHADOW_SIZE, DM_SHADOW_SIZE);
	glDisable(GL_SCISSOR_TEST);
	glClear(GL_DEPTH_BUFFER_BIT);
	glEnable(GL_DEPTH_TEST);
	glDepthMask(GL_TRUE);
	// Front-face culling moves self-shadowing acne inside closed meshes.
	glEnable(GL_CULL_FACE);
	glCullFace(GL_FRONT);
	glUseProgram(s_r.depthProgram);
	dmSetMatrix(s_r.depthProgram, "uLightViewProjection", lightViewProjection);
	for (int i = 0; i < DM_MAX_MESHES; ++i) {
		if (s_r.meshes[i].used) {
			dmDrawInstances(s_r.meshes + i, &s_r.meshes[i].opaque);
			dmDrawInstances(s_r.meshes + i, &s_r.meshes[i].transparent);
		}
	}
	glCullFace(GL_BACK);
	glBindFramebuffer(GL_FRAMEBUFFER, 0);
	glViewport(previous[0], previous[1], previous[2], previous[3]);
}

static void dmSetLighting(GLuint program, mat4s viewProjection, mat4s lightViewProjection)
{
	glUseProgram(program);
	dmSetMatrix(program, "uViewProjection", viewProjection);
	dmSetMatrix(program, "uLightViewProjection", lightViewProjection);
	dmSetVec3(program, "uLightDir", s_r.lightDir);
	dmSetVec3(program, "uEye", s_r.view.eye);
	glUniform1i(glGetUniformLocation(program, "uShadow"), 0);
	glUniform1i(glGetUniformLocation(program, "uShadows"), s_r.shadowFbo != 0 ? 1 : 0);
	glActiveTexture(GL_TEXTURE0);
	glBindTexture(GL_TEXTURE_2D, s_r.shadowTexture);
}

void dmRenderer_End(void)
{
	const dmView* v = &s_r.view;
	mat4s viewProjection = glms_mat4_mul(v->projection, v->view);
	mat4s lightViewProjection = dmLightViewProjection();
	if (s_r.shadowFbo != 0) {
		dmShadowPass(lightViewProjection);
	}

	glViewport(v->x, v->y, v->width, v->height);
	glScissor(v->x, v->y, v->width, v->height);
	glEnable(GL_SCISSOR_TEST);
	glClear(GL_DEPTH_BUFFER_BIT);
	glDisable(GL_BLEND);

	// Sky: depth test off, behind everything.
	glDisable(GL_DEPTH_TEST);
	glDepthMask(GL_FALSE);
	glUseProgram(s_r.skyProgram);
	// A hazy sky: less saturated than the bodies' colours, so that they stand out against it.
	vec3s top = v->sky ? (vec3s){{0.47f, 0.57f, 0.72f}} : (vec3s){{0.13f, 0.14f, 0.17f}};
	vec3s bottom = v->sky ? (vec3s){{0.84f, 0.86f, 0.90f}} : (vec3s){{0.24f, 0.25f, 0.29f}};
	dmSetVec3(s_r.skyProgram, "uTop", top);
	dmSetVec3(s_r.skyProgram, "uBottom", bottom);
	glBindVertexArray(s_r.emptyVao);
	glDrawArrays(GL_TRIANGLES, 0, 3);

	glEnable(GL_DEPTH_TEST);
	glDepthFunc(GL_LESS);
	glDepthMask(GL_TRUE);
	glEnable(GL_CULL_FACE);
	glCullFace(GL_BACK);
	dmSetLighting(s_r.meshProgram, viewProjection, lightViewProjection);
	for (int i = 0; i < DM_MAX_MESHES; ++i) {
		if (s_r.meshes[i].used) {
			dmDrawInstances(s_r.meshes + i, &s_r.meshes[i].opaque);
		}
	}

	glEnable(GL_BLEND);
	glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
	if (v->ground) {
		glDisable(GL_CULL_FACE);
		float extent = fmaxf(20.0f, 3.0f * v->focusRadius);
		dmSetLighting(s_r.groundProgram, viewProjection, lightViewProjection);
		glUniform1f(glGetUniformLocation(s_r.groundProgram, "uExtent"), extent);
		glUniform1f(glGetUniformLocation(s_r.groundProgram, "uY"), v->groundY);
		dmSetVec3(s_r.groundProgram, "uCentre", v->focus);
		glBindVertexArray(s_r.emptyVao);
		glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	}

	if (s_r.lineCount > 0) {
		glUseProgram(s_r.lineProgram);
		dmSetMatrix(s_r.lineProgram, "uViewProjection", viewProjection);
		glBindVertexArray(s_r.lineVao);
		glBindBuffer(GL_ARRAY_BUFFER, s_r.lineBuffer);
		glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * 7 * (size_t)s_r.lineCount),
		             s_r.lines, GL_STREAM_DRAW);
		glDrawArrays(GL_LINES, 0, s_r.lineCount);
	}

	// Transparent last, without depth writes: back faces first, then front faces, so a convex
	// see-through shape shows its far side through its near side.
	glDepthMask(GL_FALSE);
	glEnable(GL_CULL_FACE);
	dmSetLighting(s_r.meshProgram, viewProjection, lightViewProjection);
	for (int pass = 0; pass < 2; ++pass) {
		glCullFace(pass == 0 ? GL_FRONT : GL_BACK);
		for (int i = 0; i < DM_MAX_MESHES; ++i) {
			if (s_r.meshes[i].used) {
				dmDrawInstances(s_r.meshes + i, &s_r.meshes[i].transparent);
			}
		}
	}
	glDepthMask(GL_TRUE);
	glCullFace(GL_BACK);
	glDisable(GL_BLEND);
	glDisable(GL_SCISSOR_TEST);
	glBindVertexArray(0);
}
