// The page: loads a scene into the WebAssembly world, steps it at 60 Hz, draws it with WebGL, shows
// frame and step times and an energy plot, picks and throws bodies with the mouse. With
// ?test=1&scene=NAME&steps=N it steps N steps at once and writes the hashes and states into
// <pre id="result"> (the browser test, tests/web_test.sh).
"use strict";

const params = new URLSearchParams(location.search);
const SCENES = ["boxes", "pyramid", "chain", "pendulum", "mixed", "dominoes", "car"];
// Colours by body state (the pose table's last column): static, awake, asleep, kinematic.
const STATE_COLOURS = [[0.45, 0.47, 0.5], [0.93, 0.55, 0.15], [0.3, 0.5, 0.85], [0.4, 0.8, 0.4]];
const HELD_COLOUR = [0.95, 0.9, 0.3];

const app = {
	tumble: null, gl: null, program: null, meshes: {}, shapes: null, dt: 1 / 60, substeps: 4,
	paused: false, accumulator: 0, lastTime: 0, frameMs: 0, stepMs: 0, energy: [], held: -1,
	heldDistance: 0, camera: {yaw: 0.6, pitch: 0.45, distance: 24, target: [0, 2, 0]},
	car: null, keys: {},
};

// ---------------------------------------------------------------------------------------------
// Small matrix helpers (column-major, as WebGL wants).

function perspective(fovy, aspect, near, far) {
	const f = 1 / Math.tan(fovy / 2);
	return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1, 0, 0,
	        (2 * far * near) / (near - far), 0];
}

function mul(a, b) {
	const r = new Array(16).fill(0);
	for (let c = 0; c < 4; c++) {
		for (let rr = 0; rr < 4; rr++) {
			for (let k = 0; k < 4; k++) {
				r[c * 4 + rr] += a[k * 4 + rr] * b[c * 4 + k];
			}
		}
	}
	return r;
}

function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
function normalize(a) { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; }

function lookAt(eye, target, up) {
	const z = normalize(sub(eye, target));
	const x = normalize(cross(up, z));
	const y = cross(z, x);
	return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0,
	        -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
}

// The model matrix of rotation q (x, y, z, w), translation p and scale s.
function poseMatrix(p, q, s) {
	const [x, y, z, w] = q;
	const m = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
	           2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
	           2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
	           p[0], p[1], p[2], 1];
	for (let c = 0; c < 3; c++) {
		for (let r = 0; r < 3; r++) {
			m[c * 4 + r] *= s[c];
		}
	}
	return m;
}

function quatMul(a, b) {
	return [a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
	        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
	        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
	        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]];
}

function quatRotate(q, v) {
	const u = [q[0], q[1], q[2]];
	const t = cross(u, v).map((c) => 2 * c);
	const ut = cross(u, t);
	return [v[0] + q[3] * t[0] + ut[0], v[1] + q[3] * t[1] + ut[1], v[2] + q[3] * t[2] + ut[2]];
}

// ---------------------------------------------------------------------------------------------
// Meshes: positions and normals, unit sized (box: half extents 1; sphere: radius 1; cylinder and
// cone: radius 1, half height 1); a capsule is made for its own radius and half height.

function boxMesh() {
	const v = [];
	const faces = [[0, 1], [0, -1], [1, 1], [1, -1], [2, 1], [2, -1]];
	for (const [axis, sign] of faces) {
		const u = (axis + 1) % 3, w = (axis + 2) % 3;
		const corners = [[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]];
		for (const [a, b] of corners) {
			const p = [0, 0, 0], n = [0, 0, 0];
			p[axis] = sign; p[u] = sign > 0 ? a : b; p[w] = sign > 0 ? b : a; n[axis] = sign;
			v.push(...p, ...n);
		}
	}
	return v;
}

// A surface of revolution about y from a profile of (radius, y, normal radial, normal y) points.
function revolve(profile, segments) {
	const v = [];
	for (let i = 0; i < segments; i++) {
		const a0 = (2 * Math.PI * i) / segments, a1 = (2 * Math.PI * (i + 1)) / segments;
		for (let k = 0; k + 1 < profile.length; k++) {
			const [r0, y0, nr0, ny0] = profile[k], [r1, y1, nr1, ny1] = profile[k + 1];
			const P = (r, y, a) => [r * Math.cos(a), y, r * Math.sin(a)];
			const N = (nr, ny, a) => [nr * Math.cos(a), ny, nr * Math.sin(a)];
			const quad = [[r0, y0, nr0, ny0, a0], [r1, y1, nr1, ny1, a0], [r1, y1, nr1, ny1, a1],
			              [r0, y0, nr0, ny0, a0], [r1, y1, nr1, ny1, a1], [r0, y0, nr0, ny0, a1]];
			for (const [r, y, nr, ny, a] of quad) {
				v.push(...P(r, y, a), ...N(nr, ny, a));
			}
		}
	}
	return v;
}

function sphereProfile(radius, centreY, from, to, rings) {
	const p = [];
	for (let i = 0; i <= rings; i++) {
		const t = from + ((to - from) * i) / rings;
		p.push([radius * Math.cos(t), centreY + radius * Math.sin(t), Math.cos(t), Math.sin(t)]);
	}
	return p;
}

function capsuleProfile(radius, halfHeight) {
	return [...sphereProfile(radius, halfHeight, Math.PI / 2, 0, 8),
	        ...sphereProfile(radius, -halfHeight, 0, -Math.PI / 2, 8)];
}

const cylinderProfile = [[0, 1, 0, 1], [1, 1, 0, 1], [1, 1, 1, 0], [1, -1, 1, 0], [1, -1, 0, -1], [0, -1, 0, -1]];
const coneSlope = Math.SQRT1_2;
const coneProfile = [[0, 1, coneSlope, coneSlope], [1, -1, coneSlope, coneSlope], [1, -1, 0, -1], [0, -1, 0, -1]];

function mesh(key, makeVertices) {
	if (!app.meshes[key]) {
		const gl = app.gl;
		const data = new Float32Array(makeVertices());
		const buffer = gl.createBuffer();
		gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
		gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
		app.meshes[key] = {buffer, count: data.length / 6};
	}
	return app.meshes[key];
}

// ---------------------------------------------------------------------------------------------
// WebGL

const VERTEX_SHADER = `
attribute vec3 position;
attribute vec3 normal;
uniform mat4 model;
uniform mat4 viewProjection;
varying vec3 worldNormal;
void main() {
	worldNormal = mat3(model) * normal;
	gl_Position = viewProjection * model * vec4(position, 1.0);
}`;

const FRAGMENT_SHADER = `
precision mediump float;
uniform vec3 colour;
varying vec3 worldNormal;
void main() {
	vec3 n = normalize(worldNormal);
	float light = 0.35 + 0.65 * max(dot(n, normalize(vec3(0.4, 1.0, 0.3))), 0.0);
	gl_FragColor = vec4(colour * light, 1.0);
}`;

function initGl(canvas) {
	const gl = canvas.getContext("webgl", {antialias: true, preserveDrawingBuffer: true});
	if (!gl) {
		return null;
	}
	const compile = (type, source) => {
		const s = gl.createShader(type);
		gl.shaderSource(s, source);
		gl.compileShader(s);
		if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) {
			throw new Error(gl.getShaderInfoLog(s));
		}
		return s;
	};
	const program = gl.createProgram();
	gl.attachShader(program, compile(gl.VERTEX_SHADER, VERTEX_SHADER));
	gl.attachShader(program, compile(gl.FRAGMENT_SHADER, FRAGMENT_SHADER));
	gl.linkProgram(program);
	gl.useProgram(program);
	app.program = {
		position: gl.getAttribLocation(program, "position"),
		normal: gl.getAttribLocation(program, "normal"),
		model: gl.getUniformLocation(program, "model"),
		viewProjection: gl.getUniformLocation(program, "viewProjection"),
		colour: gl.getUniformLocation(program, "colour"),
	};
	gl.enable(gl.DEPTH_TEST);
	gl.enable(gl.CULL_FACE);
	return gl;
}

function cameraEye() {
	const c = app.camera;
	return [c.target[0] + c.distance * Math.cos(c.pitch) * Math.sin(c.yaw),
	        c.target[1] + c.distance * Math.sin(c.pitch),
	        c.target[2] + c.distance * Math.cos(c.pitch) * Math.cos(c.yaw)];
}

function viewProjection() {
	const canvas = app.gl.canvas;
	const aspect = canvas.width / Math.max(canvas.height, 1);
	return mul(perspective(0.8, aspect, 0.1, 500), lookAt(cameraEye(), app.camera.target, [0, 1, 0]));
}

function draw() {
	const gl = app.gl;
	if (!gl) {
		return;
	}
	const canvas = gl.canvas;
	const scale = window.devicePixelRatio || 1;
	const w = Math.floor(canvas.clientWidth * scale), h = Math.floor(canvas.clientHeight * scale);
	if (canvas.width !== w || canvas.height !== h) {
		canvas.width = w;
		canvas.height = h;
	}
	gl.viewport(0, 0, canvas.width, canvas.height);
	gl.clearColor(0.118, 0.133, 0.172, 1);
	gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
	const p = app.program;
	gl.uniformMatrix4fv(p.viewProjection, false, viewProjection());
	const poses = app.tumble.poses();
	const shapes = app.shapes;
	for (let i = 0; i < shapes.length; i += 16) {
		const body = shapes[i], type = shapes[i + 1];
		const a = shapes[i + 2], b = shapes[i + 3], c = shapes[i + 4];
		const o = body * 8;
		const bodyP = [poses[o], poses[o + 1], poses[o + 2]];
		const bodyQ = [poses[o + 3], poses[o + 4], poses[o + 5], poses[o + 6]];
		const localP = [shapes[i + 5], shapes[i + 6], shapes[i + 7]];
		const localQ = [shapes[i + 8], shapes[i + 9], shapes[i + 10], shapes[i + 11]];
		const rp = quatRotate(bodyQ, localP);
		const pos = [bodyP[0] + rp[0], bodyP[1] + rp[1], bodyP[2] + rp[2]];
		const rot = quatMul(bodyQ, localQ);
		let m, s;
		if (type === TB_SHAPE_TYPES.sphere) {
			m = mesh("sphere", () => revolve(sphereProfile(1, 0, Math.PI / 2, -Math.PI / 2, 12), 20));
			s = [a, a, a];
		} else if (type === TB_SHAPE_TYPES.capsule) {
			const key = `capsule ${a} ${b}`;
			m = mesh(key, () => revolve(capsuleProfile(a, b), 20));
			s = [1, 1, 1];
		} else if (type === TB_SHAPE_TYPES.cylinder) {
			m = mesh("cylinder", () => revolve(cylinderProfile, 24));
			s = [a, b, a];
		} else if (type === TB_SHAPE_TYPES.cone) {
			m = mesh("cone", () => revolve(coneProfile, 24));
			s = [a, b, a];
		} else {
			m = mesh("box", boxMesh);
			s = [a, b, c];
		}
		const colour = body === app.held ? HELD_COLOUR : STATE_COLOURS[poses[o + 7]] || STATE_COLOURS[0];
		gl.uniform3fv(p.colour, colour);
		gl.uniformMatrix4fv(p.model, false, poseMatrix(pos, rot, s));
		gl.bindBuffer(gl.ARRAY_BUFFER, m.buffer);
		gl.enableVertexAttribArray(p.position);
		gl.enableVertexAttribArray(p.normal);
		gl.vertexAttribPointer(p.position, 3, gl.FLOAT, false, 24, 0);
		gl.vertexAttribPointer(p.normal, 3, gl.FLOAT, false, 24, 12);
		gl.drawArrays(gl.TRIANGLES, 0, m.count);
	}
}

// ---------------------------------------------------------------------------------------------
// Scenes

// A car built through the JavaScript API: a box chassis on four cylinder wheels, each on a
// motorised hinge across the car; arrow keys drive it.
function buildCar(t) {
	t.createWorld([0, -9.81, 0], true);
	const ground = t.addBody({type: "static", position: [0, -0.5, 0]});
	t.addShape(ground, {kind: "box", size: [40, 0.5, 40]});
	// A ramp and a few boxes to drive into.
	const ramp = t.addBody({type: "static", position: [8, 0, 0], rotation: [0, 0, Math.sin(0.1), Math.cos(0.1)]});
	t.addShape(ramp, {kind: "box", size: [3, 0.3, 2]});
	for (let i = 0; i < 6; i++) {
		const box = t.addBody({type: "dynamic", position: [14, 0.4 + 0.8 * i, (i % 2) * 0.1]});
		t.addShape(box, {kind: "box", size: [0.4, 0.4, 0.4], density: 200});
	}
	const chassis = t.addBody({type: "dynamic", position: [0, 1.0, 0]});
	t.addShape(chassis, {kind: "box", size: [1.2, 0.2, 0.6], density: 400});
	const wheels = [];
	// A cylinder's axis is y: turned a quarter about x, it lies along z (across the car).
	const across = [Math.SQRT1_2, 0, 0, Math.SQRT1_2];
	for (const [x, z] of [[-0.8, -0.75], [0.8, -0.75], [-0.8, 0.75], [0.8, 0.75]]) {
		const wheel = t.addBody({type: "dynamic", position: [x, 0.6, z], rotation: across});
		t.addShape(wheel, {kind: "cylinder", size: [0.4, 0.12], density: 300, friction: 1.0});
		wheels.push(t.addJoint({kind: "hinge", bodyA: chassis, bodyB: wheel, anchor: [x, 0.6, z], axis: [0, 0, 1]}));
	}
	app.car = {wheels};
	app.camera.target = [4, 1, 0];
	app.camera.distance = 16;
	return {dt: 1 / 60, substeps: 4};
}

function driveCar() {
	if (!app.car) {
		return;
	}
	const forward = (app.keys.ArrowUp ? 1 : 0) - (app.keys.ArrowDown ? 1 : 0);
	const turn = (app.keys.ArrowLeft ? 1 : 0) - (app.keys.ArrowRight ? 1 : 0);
	app.car.wheels.forEach((joint, k) => {
		const left = k < 2;
		const speed = -12 * forward + (left ? 6 : -6) * turn;
		app.tumble.setHingeMotor(joint, speed, forward || turn ? 60 : 5);
	});
}

async function fetchScene(name) {
	const response = await fetch(`scenes/${name}.json`);
	if (!response.ok) {
		throw new Error(`scenes/${name}.json: ${response.status} ${response.statusText}`);
	}
	return response.text();
}

function frameScene() {
	// Aim the camera at the bodies: their box's centre, from a distance that holds it.
	const poses = app.tumble.poses();
	let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
	for (let i = 0; i < poses.length; i += 8) {
		if (poses[i + 7] === 0) {
			continue; // static: the ground is large
		}
		for (let k = 0; k < 3; k++) {
			lo[k] = Math.min(lo[k], poses[i + k]);
			hi[k] = Math.max(hi[k], poses[i + k]);
		}
	}
	if (lo[0] === Infinity) {
		return;
	}
	app.camera.target = [(lo[0] + hi[0]) / 2, Math.max((lo[1] + hi[1]) / 2, 1), (lo[2] + hi[2]) / 2];
	app.camera.distance = Math.min(Math.max(1.6 * Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]), 6), 120);
}

// Load a scene by name (or JSON text from a dropped file) into the world.
async function loadScene(name, text = null, fileName = null) {
	document.getElementById("error").textContent = "";
	app.car = null;
	app.held = -1;
	app.energy = [];
	let info;
	if (text === null && name === "car") {
		info = buildCar(app.tumble);
	} else {
		const json = text !== null ? text : await fetchScene(name);
		info = app.tumble.loadScene(json, fileName || `${name}.json`);
		frameScene();
	}
	app.dt = info.dt;
	app.substeps = info.substeps;
	app.shapes = app.tumble.shapes();
	app.accumulator = 0;
}

function stepOnce() {
	driveCar();
	app.stepMs = app.tumble.step(app.dt, app.substeps);
	const e = app.tumble.energy();
	app.energy.push(e);
	if (app.energy.length > 250) {
		app.energy.shift();
	}
}

// ---------------------------------------------------------------------------------------------
// HUD

function drawEnergy() {
	const canvas = document.getElementById("energy");
	const g = canvas.getContext("2d");
	g.fillStyle = "#14161c";
	g.fillRect(0, 0, canvas.width, canvas.height);
	const data = app.energy;
	if (data.length < 2) {
		return;
	}
	let lo = Infinity, hi = -Infinity;
	for (const e of data) {
		lo = Math.min(lo, e.kinetic, e.total);
		hi = Math.max(hi, e.kinetic, e.total);
	}
	const span = hi - lo || 1;
	const plot = (key, colour) => {
		g.strokeStyle = colour;
		g.beginPath();
		data.forEach((e, i) => {
			const y = canvas.height - 4 - ((e[key] - lo) / span) * (canvas.height - 16);
			i === 0 ? g.moveTo(i, y) : g.lineTo(i, y);
		});
		g.stroke();
	};
	plot("total", "#e0e0e0");
	plot("kinetic", "#f0a040");
	g.fillStyle = "#e0e0e0";
	g.fillText("total", 4, 10);
	g.fillStyle = "#f0a040";
	g.fillText("kinetic (J)", 40, 10);
}

function updateHud() {
	const e = app.energy.length ? app.energy[app.energy.length - 1] : {kinetic: 0, total: 0};
	document.getElementById("stats").textContent =
	    `frame ${app.frameMs.toFixed(2)} ms  step ${app.stepMs.toFixed(2)} ms\n` +
	    `bodies ${app.tumble.bodyCount()}  energy ${e.total.toFixed(1)} J\n` +
	    `hash ${app.tumble.stateHash().world}`;
	drawEnergy();
}

// ---------------------------------------------------------------------------------------------
// Mouse: left button picks (a ray through the pixel, tbWorld_CastRayClosest) and throws; right
// button orbits; the wheel zooms.

function pixelRay(event) {
	const canvas = app.gl.canvas;
	const rect = canvas.getBoundingClientRect();
	const x = ((event.clientX - rect.left) / rect.width) * 2 - 1;
	const y = 1 - ((event.clientY - rect.top) / rect.height) * 2;
	const eye = cameraEye();
	const forward = normalize(sub(app.camera.target, eye));
	const right = normalize(cross(forward, [0, 1, 0]));
	const up = cross(right, forward);
	const tanHalf = Math.tan(0.4), aspect = rect.width / rect.height;
	const dir = normalize([0, 1, 2].map((k) => forward[k] + right[k] * x * tanHalf * aspect + up[k] * y * tanHalf));
	return {origin: eye, dir};
}

function installMouse(canvas) {
	let orbit = null;
	canvas.addEventListener("contextmenu", (e) => e.preventDefault());
	canvas.addEventListener("mousedown", (e) => {
		if (e.button === 2) {
			orbit = {x: e.clientX, y: e.clientY};
			return;
		}
		const ray = pixelRay(e);
		const hit = app.tumble.castRay(ray.origin, ray.dir.map((c) => c * 300));
		if (hit) {
			app.tumble.beginPick(hit.body, hit.point);
			app.held = hit.body;
			app.heldDistance = 300 * hit.fraction;
		}
	});
	window.addEventListener("mousemove", (e) => {
		if (orbit) {
			app.camera.yaw -= (e.clientX - orbit.x) * 0.005;
			app.camera.pitch = Math.min(Math.max(app.camera.pitch + (e.clientY - orbit.y) * 0.005, -0.2), 1.5);
			orbit = {x: e.clientX, y: e.clientY};
		} else if (app.held >= 0) {
			const ray = pixelRay(e);
			app.tumble.movePick(ray.origin.map((c, k) => c + ray.dir[k] * app.heldDistance));
		}
	});
	window.addEventListener("mouseup", () => {
		orbit = null;
		if (app.held >= 0) {
			app.tumble.endPick(); // the body keeps its velocity: a throw
			app.held = -1;
		}
	});
	canvas.addEventListener("wheel", (e) => {
		app.camera.distance = Math.min(Math.max(app.camera.distance * Math.exp(e.deltaY * 0.001), 2), 200);
		e.preventDefault();
	}, {passive: false});
	window.addEventListener("keydown", (e) => { app.keys[e.key] = true; });
	window.addEventListener("keyup", (e) => { app.keys[e.key] = false; });
	// A scene file dropped on the page is loaded (the scene loader is in the WebAssembly build).
	document.addEventListener("dragover", (e) => e.preventDefault());
	document.addEventListener("drop", async (e) => {
		e.preventDefault();
		const file = e.dataTransfer.files[0];
		if (!file) {
			return;
		}
		try {
			await loadScene(null, await file.text(), file.name);
		} catch (error) {
			document.getElementById("error").textContent = String(error.message || error);
		}
	});
}

// ---------------------------------------------------------------------------------------------

function frame(now) {
	const elapsed = app.lastTime ? Math.min((now - app.lastTime) / 1000, 0.1) : app.dt;
	app.lastTime = now;
	const start = performance.now();
	if (!app.paused) {
		// Fixed steps of the scene's dt, at most 4 a frame (a slow frame does not snowball).
		app.accumulator += elapsed;
		for (let n = 0; app.accumulator >= app.dt && n < 4; n++) {
			stepOnce();
			app.accumulator -= app.dt;
		}
		app.accumulator = Math.min(app.accumulator, app.dt);
	}
	draw();
	app.frameMs = performance.now() - start;
	updateHud();
	requestAnimationFrame(frame);
}

// Test mode: N steps at once, then the figures the browser test compares with the native tool.
function runTest(steps) {
	// Each step is a frame: the step, then the draw calls (their submission; the GPU's work is not
	// waited for). Times are only real without --virtual-time-budget, which stops the clock.
	const start = performance.now();
	let stepSum = 0, frameMax = 0;
	for (let i = 0; i < steps; i++) {
		const frameStart = performance.now();
		stepOnce();
		stepSum += app.stepMs;
		draw();
		frameMax = Math.max(frameMax, performance.now() - frameStart);
	}
	const wall = performance.now() - start;
	const states = Array.from(app.tumble.states());
	let checksum = 0;
	const poses = app.tumble.poses();
	for (let i = 0; i < poses.length; i += 8) {
		for (let k = 0; k < 7; k++) {
			checksum += poses[i + k];
		}
	}
	const result = {
		scene: params.get("scene") || "boxes", steps, bodies: app.tumble.bodyCount(),
		hash: app.tumble.stateHash(), poseChecksum: checksum,
		stepMs: stepSum / Math.max(steps, 1), frameMs: wall / Math.max(steps, 1), frameMaxMs: frameMax,
		webgl: app.gl !== null,
		// Shortest round-trip decimal of each float: the test reads back the same bits.
		states: states.map((x) => (Object.is(x, -0) ? "-0" : String(x))).join(","),
	};
	const pre = document.getElementById("result");
	pre.textContent = JSON.stringify(result);
	pre.setAttribute("data-done", "1");
	updateHud();
	// &report=1: POST the result to the serving page's /result (the test's server,
	// tests/web_test.py), for runs on the real clock, where --dump-dom comes too early.
	if (params.get("report") === "1") {
		fetch(`result?name=${encodeURIComponent(result.scene)}`, {method: "POST", body: pre.textContent});
	}
}

async function main() {
	const select = document.getElementById("scene");
	for (const name of SCENES) {
		select.add(new Option(name, name));
	}
	const name = params.get("scene") || "boxes";
	select.value = name;
	try {
		app.tumble = await Tumble.load();
		const canvas = document.getElementById("view");
		app.gl = initGl(canvas);
		if (!app.gl) {
			document.getElementById("error").textContent = "WebGL is not available: the scene runs, nothing is drawn";
		}
		installMouse(canvas);
		await loadScene(name);
	} catch (error) {
		document.getElementById("error").textContent = String(error.message || error);
		const pre = document.getElementById("result");
		pre.textContent = JSON.stringify({error: String(error.message || error)});
		pre.setAttribute("data-done", "1");
		return;
	}
	select.addEventListener("change", () => loadScene(select.value).catch((error) => {
		document.getElementById("error").textContent = String(error.message || error);
	}));
	document.getElementById("reset").addEventListener("click", () => loadScene(select.value));
	document.getElementById("pause").addEventListener("click", () => { app.paused = !app.paused; });
	if (params.get("test") === "1") {
		runTest(parseInt(params.get("steps") || "120", 10));
		return;
	}
	requestAnimationFrame(frame);
}

main();
