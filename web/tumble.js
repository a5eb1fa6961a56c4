// Tumble in the browser: a small JavaScript API over the WebAssembly build (web/tumble_web.c):
// one world at a time, built from scene JSON or body by body, stepped, and read in bulk.
//
//   const tumble = await Tumble.load();          // tumble_wasm.js must be loaded first
//   tumble.createWorld([0, -9.81, 0], true);
//   const box = tumble.addBody({type: "dynamic", position: [0, 2, 0]});
//   tumble.addShape(box, {kind: "box", size: [0.5, 0.5, 0.5]});
//   tumble.step(1 / 60, 4);
//   const poses = tumble.poses();                // Float32Array view, 8 floats per body
"use strict";

// Floats per row of the pose and shape tables (TBW_POSE_FLOATS, TBW_SHAPE_FLOATS in C).
const TB_POSE_FLOATS = 8;
const TB_SHAPE_FLOATS = 16;
const TB_BODY_TYPES = {static: 0, kinematic: 1, dynamic: 2};
const TB_SHAPE_KINDS = {sphere: 0, box: 1, capsule: 2, cylinder: 3, cone: 4};
const TB_JOINT_KINDS = {ball: 0, hinge: 1, fixed: 2};
// tbShapeType values in the shape table's second column.
const TB_SHAPE_TYPES = {sphere: 0, box: 1, capsule: 2, cylinder: 3, cone: 4};

class Tumble {
	// Instantiate the module (createTumbleModule from tumble_wasm.js) and bind its exports.
	static async load(moduleOptions = {}) {
		const module = await createTumbleModule(moduleOptions);
		return new Tumble(module);
	}

	constructor(module) {
		this.module = module;
		const f = (name, ret, args) => module.cwrap(name, ret, args);
		const n = "number";
		this._createWorld = f("tbw_CreateWorld", n, [n, n, n, n]);
		this._loadScene = f("tbw_LoadScene", n, [n, n, n]);
		this._sceneDt = f("tbw_GetSceneDt", n, []);
		this._sceneSubsteps = f("tbw_GetSceneSubsteps", n, []);
		this._addBody = f("tbw_AddBody", n, Array(14).fill(n));
		this._addShape = f("tbw_AddShape", n, Array(15).fill(n));
		this._addJoint = f("tbw_AddJoint", n, Array(9).fill(n));
		this._setHingeMotor = f("tbw_SetHingeMotor", null, [n, n, n]);
		this._step = f("tbw_Step", n, [n, n]);
		this._bodyCount = f("tbw_GetBodyCount", n, []);
		this._poses = f("tbw_GetPoses", n, []);
		this._states = f("tbw_GetStates", n, []);
		this._shapes = f("tbw_GetShapes", n, []);
		this._shapeCount = f("tbw_GetShapeCount", n, []);
		this._energy = f("tbw_GetEnergy", n, []);
		this._hash = f("tbw_GetStateHash", "string", []);
		this._text = f("tbw_GetText", "string", []);
		this._castRay = f("tbw_CastRay", n, [n, n, n, n, n, n]);
		this._hit = f("tbw_GetHit", n, []);
		this._beginPick = f("tbw_BeginPick", null, [n, n, n, n]);
		this._movePick = f("tbw_MovePick", null, [n, n, n]);
		this._endPick = f("tbw_EndPick", null, []);
	}

	// A Float32Array view of `count` floats at `address` in wasm memory (made again on each call:
	// the memory's buffer changes when it grows).
	_view(address, count) {
		return new Float32Array(this.module.HEAPF32.buffer, address, count);
	}

	_check(ok) {
		if (!ok) {
			throw new Error(this._text());
		}
	}

	// An empty world: gravity [x, y, z] m/s^2, sleeping on or off.
	createWorld(gravity = [0, -9.81, 0], sleep = true) {
		this._check(this._createWorld(gravity[0], gravity[1], gravity[2], sleep ? 1 : 0));
	}

	// A world from scene JSON text (docs/scene-format.md). Returns {bodyCount, dt, substeps};
	// throws an Error with the loader's message ("boxes.json:14: bodies[3]...: ...").
	loadScene(text, fileName = "scene.json") {
		const m = this.module;
		const size = m.lengthBytesUTF8(text) + 1;
		const textPtr = m._malloc(size);
		const nameSize = m.lengthBytesUTF8(fileName) + 1;
		const namePtr = m._malloc(nameSize);
		m.stringToUTF8(text, textPtr, size);
		m.stringToUTF8(fileName, namePtr, nameSize);
		const count = this._loadScene(textPtr, size - 1, namePtr);
		m._free(textPtr);
		m._free(namePtr);
		this._check(count >= 0);
		return {bodyCount: count, dt: this._sceneDt(), substeps: this._sceneSubsteps()};
	}

	// Add a body: {type: "static" | "kinematic" | "dynamic", position, rotation [x, y, z, w],
	// linearVelocity, angularVelocity}. Returns its index (creation order).
	addBody(def) {
		const p = def.position || [0, 0, 0];
		const q = def.rotation || [0, 0, 0, 1];
		const v = def.linearVelocity || [0, 0, 0];
		const w = def.angularVelocity || [0, 0, 0];
		const index = this._addBody(TB_BODY_TYPES[def.type || "static"], p[0], p[1], p[2], q[0],
		                            q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
		this._check(index >= 0);
		return index;
	}

	// Attach a shape to body `body`: {kind: "sphere" | "box" | "capsule" | "cylinder" | "cone",
	// size: [radius] | [hx, hy, hz] | [radius, halfHeight], position, rotation (local pose),
	// density (1000 kg/m^3), friction (0.6), restitution (0)}.
	addShape(body, def) {
		const s = def.size;
		const p = def.position || [0, 0, 0];
		const q = def.rotation || [0, 0, 0, 1];
		const ok = this._addShape(body, TB_SHAPE_KINDS[def.kind], s[0], s[1] || 0, s[2] || 0,
		                          p[0], p[1], p[2], q[0], q[1], q[2], q[3],
		                          def.density ?? 1000, def.friction ?? 0.6, def.restitution ?? 0);
		this._check(ok);
	}

	// Join two bodies: {kind: "ball" | "hinge" | "fixed", bodyA, bodyB, anchor (world), axis
	// (hinge, world)}. Returns the joint's index.
	addJoint(def) {
		const a = def.anchor;
		const n = def.axis || [0, 0, 1];
		const index = this._addJoint(TB_JOINT_KINDS[def.kind], def.bodyA, def.bodyB, a[0], a[1],
		                             a[2], n[0], n[1], n[2]);
		this._check(index >= 0);
		return index;
	}

	// Drive a hinge: speed rad/s, the largest torque N m (0: motor off).
	setHingeMotor(joint, speed, maxTorque) {
		this._setHingeMotor(joint, speed, maxTorque);
	}

	// Advance by dt seconds with `substeps` substeps; returns the step's time, ms.
	step(dt, substeps = 4) {
		const ms = this._step(dt, substeps);
		this._check(ms >= 0);
		return ms;
	}

	bodyCount() {
		return this._bodyCount();
	}

	// Every body's pose in one Float32Array view of wasm memory: 8 floats per body, position (3),
	// rotation x, y, z, w (4), state (0 static, 1 awake, 2 asleep, 3 kinematic). Read it before
	// the next call into the module.
	poses() {
		return this._view(this._poses(), TB_POSE_FLOATS * this._bodyCount());
	}

	// Every body's state, 13 floats each: position (3), rotation x, y, z, w (4), linear velocity
	// (3), angular velocity (3); a view, as for poses().
	states() {
		return this._view(this._states(), 13 * this._bodyCount());
	}

	// Every shape (16 floats each: body index, type, size a, b, c, local position (3), local
	// rotation (4), spare): a copy, since shapes do not change while a world lives.
	shapes() {
		const address = this._shapes();
		return this._view(address, TB_SHAPE_FLOATS * this._shapeCount()).slice();
	}

	// {kinetic, potential, total} energy of the dynamic bodies, J.
	energy() {
		const e = this._view(this._energy(), 3);
		return {kinetic: e[0], potential: e[1], total: e[2]};
	}

	// {world, run}: tbWorld_GetStateHash and the `tumble run` summary's state hash, 16 hex digits.
	stateHash() {
		const [world, run] = this._hash().split(" ");
		return {world, run};
	}

	// The closest body hit by the segment origin -> origin + translation: {body, point, normal,
	// fraction}, or null.
	castRay(origin, translation) {
		const body = this._castRay(origin[0], origin[1], origin[2], translation[0],
		                           translation[1], translation[2]);
		if (body < 0) {
			return null;
		}
		const h = this._view(this._hit(), 7);
		return {body, point: [h[0], h[1], h[2]], normal: [h[3], h[4], h[5]], fraction: h[6]};
	}

	// Hold a dynamic body at a world point (a spring pulls it to the target); endPick throws it.
	beginPick(body, point) {
		this._beginPick(body, point[0], point[1], point[2]);
	}

	movePick(target) {
		this._movePick(target[0], target[1], target[2]);
	}

	endPick() {
		this._endPick();
	}
}

if (typeof module !== "undefined") {
	module.exports = {Tumble, TB_POSE_FLOATS, TB_SHAPE_FLOATS, TB_SHAPE_TYPES};
}
