"""The Python API: bulk arrays equal to the per-body getters, every shape type and joint type,
queries against analytic answers, scenes, events, and bad input raising the engine's message."""

import math

import numpy as np
import pytest

import tumble

DT = 1.0 / 60.0


def make_world_with_boxes(n=6):
    world = tumble.World(enable_sleep=False)
    ground = world.create_body("static", position=(0, -0.5, 0))
    ground.create_shape(tumble.Box(10, 0.5, 10))
    bodies = []
    for i in range(n):
        b = world.create_body(
            position=(0.3 * i, 1 + 0.6 * i, 0),
            rotation=tumble.quat_from_euler_xyz(0.1 * i, 0.2, 0.3),
            linear_velocity=(0.1 * i, 0, 0),
            angular_velocity=(0, 1, 0.5 * i),
        )
        b.create_shape(tumble.Box(0.2, 0.2, 0.2))
        bodies.append(b)
    return world, ground, bodies


def test_bulk_arrays_equal_per_body_getters():
    world, ground, bodies = make_world_with_boxes()
    with world:
        for _ in range(30):
            world.step(DT, 4)
        s = world.get_body_snapshots()
        assert len(s) == 7
        assert s.positions.shape == (7, 3) and s.rotations.shape == (7, 4)
        assert s.bodies == [ground] + bodies
        for row, b in enumerate([ground] + bodies):
            assert s.index(b) == row
            np.testing.assert_array_equal(s.positions[row], b.position.astype(np.float32))
            np.testing.assert_array_equal(s.rotations[row], b.rotation.astype(np.float32))
            np.testing.assert_array_equal(s.linear_velocities[row], b.linear_velocity.astype(np.float32))
            np.testing.assert_array_equal(s.angular_velocities[row], b.angular_velocity.astype(np.float32))
            assert s.kinetic_energies[row] == np.float32(b.kinetic_energy)
        assert world.kinetic_energy() == pytest.approx(sum(b.kinetic_energy for b in bodies), rel=1e-6)
        # Destroyed bodies leave the table.
        bodies[2].destroy()
        s2 = world.get_body_snapshots()
        assert len(s2) == 6 and bodies[2] not in s2.bodies


def test_definitions_round_trip():
    with tumble.World(gravity=(0, -3, 0)) as world:
        np.testing.assert_allclose(world.gravity, (0, -3, 0))
        q = tumble.quat_from_axis_angle((1, 1, 0), 0.7)
        b = world.create_body(position=(1, 2, 3), rotation=q, linear_velocity=(4, 5, 6), angular_velocity=(7, 8, 9),
                              linear_damping=0.25, gravity_scale=0.5)
        b.create_shape(tumble.Sphere(0.5), density=2000, friction=0.3, restitution=0.2)
        np.testing.assert_allclose(b.position, (1, 2, 3), atol=1e-6)
        np.testing.assert_allclose(b.rotation, q, atol=1e-6)
        np.testing.assert_allclose(b.linear_velocity, (4, 5, 6), atol=1e-5)
        np.testing.assert_allclose(b.angular_velocity, (7, 8, 9), atol=1e-4)
        assert b.linear_damping == 0.25 and b.gravity_scale == 0.5
        assert b.mass == pytest.approx(2000 * 4 / 3 * math.pi * 0.125, rel=1e-5)
        s = b.shapes[0]
        assert s.friction == pytest.approx(0.3) and s.restitution == pytest.approx(0.2)
        assert s.body == b and isinstance(s.geometry, tumble.Sphere) and s.geometry.radius == 0.5
        b.set_transform((0, 0, 0), tumble.IDENTITY)
        np.testing.assert_allclose(b.get_transform()[0], 0, atol=0)


def test_every_shape_type():
    pts = [(x, y, z) for x in (-0.3, 0.3) for y in (-0.2, 0.2) for z in (-0.1, 0.1)] + [(0, 0, 0)]
    shapes = [
        tumble.Sphere(0.2),
        tumble.Box(0.1, 0.2, 0.3),
        tumble.Capsule(0.1, 0.2),
        tumble.Cylinder(0.2, 0.1),
        tumble.Cone(0.2, 0.3),
        tumble.ConvexHull(pts),
    ]
    assert len(shapes[-1].vertices) == 8  # the interior point is dropped
    with tumble.World() as world:
        # Level geometry: a heightfield and a mesh, both flat at y = 0 and y = -1.
        level = world.create_body("static")
        level.create_shape(tumble.Heightfield(np.zeros((11, 11)), 2.0, 2.0))
        level.create_shape(tumble.TriangleMesh([(-50, -1, -50), (50, -1, -50), (50, -1, 50), (-50, -1, 50)], [(0, 2, 1), (0, 3, 2)]))
        bodies = []
        for i, g in enumerate(shapes):
            b = world.create_body(position=(2.0 * i - 5, 1.0, 0))
            b.create_shape(g)
            bodies.append(b)
            # Mass properties against closed forms where simple.
        assert shapes[1].compute_mass(1000).mass == pytest.approx(1000 * 0.2 * 0.4 * 0.6)
        assert shapes[3].compute_mass(1000).mass == pytest.approx(1000 * math.pi * 0.04 * 0.2)
        assert shapes[4].compute_mass(1000).mass == pytest.approx(1000 * math.pi * 0.04 * 0.6 / 3)
        assert shapes[5].compute_mass(1000).mass == pytest.approx(1000 * 0.6 * 0.4 * 0.2)
        for _ in range(120):
            world.step(DT, 4)
        # Everything came to rest on the heightfield's surface (y = 0), not through it.
        for b in bodies:
            lower, _ = b.shapes[0].get_aabb()
            assert lower[1] == pytest.approx(0.0, abs=0.02), (b, lower)
        hit = world.cast_ray_closest((30, 5, 0), (0, -10, 0))  # outside the heightfield: the mesh
        assert hit is not None and hit.point[1] == pytest.approx(-1.0, abs=1e-4)


def test_joints_of_every_type():
    with tumble.World(enable_sleep=False) as world:
        anchor = world.create_body("static", position=(0, 5, 0))

        def bob(x):
            b = world.create_body(position=(x, 4, 0))
            b.create_shape(tumble.Box(0.1, 0.1, 0.1))
            return b

        ball = world.create_ball_joint(anchor, bob(0), anchor=(0, 5, 0))
        hinge = world.create_hinge_joint(anchor, bob(2), anchor=(2, 5, 0), axis=(0, 0, 1))
        slider = world.create_slider_joint(anchor, bob(4), anchor=(4, 4, 0), axis=(0, 1, 0), enable_limit=True,
                                           lower_translation=-0.5, upper_translation=0.5)
        fixed = world.create_fixed_joint(anchor, bob(6), anchor=(6, 4.5, 0))
        dist = world.create_distance_joint(anchor, bob(8), anchor_a=(8, 5, 0), anchor_b=(8, 4, 0))
        assert [j.type for j in (ball, hinge, slider, fixed, dist)] == list(tumble.JointType)[:5]
        for _ in range(60):
            world.step(DT, 4)
        # The slider's load falls to its lower limit; the fixed one stays; the distance holds.
        assert slider.translation == pytest.approx(-0.5, abs=0.01)
        np.testing.assert_allclose(fixed.body_b.position, (6, 4, 0), atol=0.01)
        assert dist.length == pytest.approx(1.0, abs=0.005)
        # A hanging load: the joint holds it with m g.
        m = dist.body_b.mass
        assert np.linalg.norm(ball.reaction_force) == pytest.approx(m * 9.81, rel=0.02)
        hinge.destroy()
        assert not hinge.is_valid()
        with pytest.raises(tumble.TumbleError, match="stale"):
            hinge.angle


def test_joint_limits_wheels_and_joint_events():
    with tumble.World(enable_sleep=False, gravity=(0, 0, 0)) as world:
        anchor = world.create_body("static", position=(0, 0, 0))
        limb = world.create_body(position=(0, -0.5, 0))
        limb.create_shape(tumble.Box(0.1, 0.5, 0.1))
        ball = world.create_ball_joint(anchor, limb, anchor=(0, 0, 0), twist_axis=(0, -1, 0), swing_axis=(1, 0, 0),
                                       enable_cone=True, cone_angle1=0.5, cone_angle2=0.5)
        limb.angular_velocity = (0, 0, 10)
        limb.linear_velocity = (5, 0, 0)
        for _ in range(60):
            world.step(DT, 4)
        # Thrown at its cone: it stops on it.
        assert ball.swing_angle == pytest.approx(0.5, abs=0.02)
        ball.set_force_threshold(0.0)
        limb.angular_velocity = (0, 0, 1)
        world.step(DT, 4)
        events = world.get_joint_events()
        assert len(events) == 1 and events[0].joint == ball and events[0].force > 0
        frame = world.create_body("static", position=(5, 2, 0))
        wheel = world.create_body(position=(5, 1, 0))
        wheel.create_shape(tumble.Sphere(0.3))
        wj = world.create_wheel_joint(frame, wheel, anchor=(5, 1, 0), enable_motor=True, motor_speed=4.0,
                                      max_motor_torque=20.0)
        assert wj.type == tumble.JointType.WHEEL
        wj.steering = 0.25
        assert wj.steering == pytest.approx(0.25)
        for _ in range(60):
            world.step(DT, 4)
        np.testing.assert_allclose(wheel.angular_velocity, (4 * math.sin(0.25), 0, 4 * math.cos(0.25)), atol=0.02)


def test_query_shapes_depth_is_analytic():
    # Two spheres 0.5 + 0.3 apart at 0.6: depth 0.2 along x.
    r = tumble.query_shapes(tumble.Sphere(0.5), (0, 0, 0), tumble.IDENTITY, tumble.Sphere(0.3), (0.6, 0, 0), tumble.IDENTITY)
    assert r.hit and r.distance == pytest.approx(-0.2, abs=1e-5)
    np.testing.assert_allclose(r.normal, (1, 0, 0), atol=1e-5)
    # Two unit boxes, one turned 45 degrees about y with its edge 0.1 into the other's face:
    # depth 0.1 (the edge is sqrt(2)/2 from its centre).
    q = tumble.quat_from_axis_angle((0, 1, 0), math.pi / 4)
    x = 0.5 + math.sqrt(2) / 2 - 0.1
    for algorithm in tumble.QueryAlgorithm:
        r = tumble.query_shapes(tumble.Box(0.5, 0.5, 0.5), (0, 0, 0), tumble.IDENTITY, tumble.Box(0.5, 0.5, 0.5), (x, 0, 0), q, algorithm=algorithm)
        assert r.distance == pytest.approx(-0.1, abs=1e-4), algorithm
    # Apart: a capsule above a box, 0.25 between them.
    r = tumble.shape_distance(tumble.Box(1, 0.5, 1), (0, 0, 0), tumble.IDENTITY, tumble.Capsule(0.25, 0.5), (0, 1.5, 0), tumble.IDENTITY)
    assert not r.hit and r.distance == pytest.approx(0.25, abs=1e-5)
    assert tumble.test_overlap(tumble.Sphere(1), (0, 0, 0), tumble.IDENTITY, tumble.Cone(0.5, 0.5), (0, 1.4, 0), tumble.IDENTITY)
    m = tumble.collide_shapes(tumble.Box(1, 0.5, 1), (0, 0, 0), tumble.IDENTITY, tumble.Box(0.2, 0.2, 0.2), (0, 0.69, 0), tumble.IDENTITY)
    assert len(m.separations) == 4 and np.allclose(m.separations, -0.01, atol=1e-5)


def test_ray_casts_hit_analytic_points():
    c = tumble.ray_cast_shape(tumble.Sphere(1), (0, 0, 0), tumble.IDENTITY, (-3, 0.6, 0), (6, 0, 0))
    assert c.hit and c.point[0] == pytest.approx(-0.8, abs=1e-4) and c.fraction == pytest.approx(2.2 / 6, abs=1e-4)
    with tumble.World() as world:
        a = world.create_body("static", position=(0, 0, 0))
        sa = a.create_shape(tumble.Box(1, 1, 1))
        b = world.create_body("static", position=(5, 0, 0))
        sb = b.create_shape(tumble.Sphere(0.5))
        hits = world.cast_ray((-5, 0, 0), (15, 0, 0))
        assert [h.shape for h in hits] == [sa, sb]
        assert [round(h.point[0], 4) for h in hits] == [-1.0, 4.5]
        closest = world.cast_ray_closest((10, 0, 0), (-15, 0, 0))
        assert closest.shape == sb and closest.normal[0] == pytest.approx(1)
        assert world.cast_ray_closest((0, 5, 0), (0, 1, 0)) is None
        assert set(world.overlap_shape(tumble.Sphere(0.2), (1.1, 0, 0))) == {sa}
        assert set(world.overlap_aabb((-10, -10, -10), (10, 10, 10))) == {sa, sb}
        hit = world.cast_shape_closest(tumble.Sphere(0.5), (5, 5, 0), tumble.IDENTITY, (0, -10, 0))
        assert hit.shape == sb and hit.fraction == pytest.approx(0.4, abs=1e-3)
        assert sa.ray_cast((0, 5, 0), (0, -10, 0)).point[1] == pytest.approx(1.0, abs=1e-4)


def test_contact_data_and_events():
    with tumble.World(enable_sleep=False) as world:
        g = world.create_body("static", position=(0, -0.5, 0)).create_shape(tumble.Box(5, 0.5, 5))
        ball = world.create_body(position=(0, 1.25, 0))
        s = ball.create_shape(tumble.Sphere(0.25), enable_hit_events=True)
        begins, hits = [], []
        for _ in range(60):
            world.step(DT, 4)
            e = world.get_contact_events()
            begins += e.begin
            hits += e.hits
        assert len(begins) == 1 and {begins[0].shape_a, begins[0].shape_b} == {g, s}
        # Dropped 1 m: it strikes at sqrt(2 g h).
        assert len(hits) == 1 and hits[0].approach_speed == pytest.approx(math.sqrt(2 * 9.81 * 1.0), rel=0.03)
        contacts = world.get_contact_data()
        assert len(contacts) == 1
        # At rest: the normal impulses over the whole step hold m g dt, the forces m g.
        assert contacts[0].normal_impulses.sum() == pytest.approx(ball.mass * 9.81 * DT, rel=0.02)
        assert contacts[0].normal_forces.sum() == pytest.approx(ball.mass * 9.81, rel=0.02)
        assert len(ball.get_contact_data()) == 1
        assert isinstance(world.get_body_events(), list)


def test_scene_load_and_run():
    with tumble.Scene("bounce") as scene:
        assert scene.body_names[0] == "ground"
        ball = scene.body("ball_e0")
        scene.run(120)
        assert scene.world.get_counters()["step_count"] == 120
        assert ball.position[1] == pytest.approx(0.25, abs=0.01)  # e = 0: it stays down
    with pytest.raises(tumble.TumbleError, match="no_such_scene"):
        tumble.Scene("no_such_scene")


def test_bad_input_raises_the_engines_message(tmp_path):
    with pytest.raises(tumble.TumbleError, match="radius"):
        tumble.Sphere(-1.0)
    with pytest.raises(tumble.TumbleError, match="half"):
        tumble.Box(0.5, -0.1, 0.5)
    with tumble.World() as world:
        b = world.create_body()
        with pytest.raises(tumble.TumbleError, match="density"):
            b.create_shape(tumble.Sphere(1.0), density=-5)
        with pytest.raises(tumble.TumbleError, match="tbCreateBody"):
            world.create_body(position=(float("nan"), 0, 0))
        with pytest.raises(tumble.TumbleError, match="timeStep"):
            world.step(-0.016)
        with pytest.raises(tumble.TumbleError, match="tbBody_SetTransform"):
            b.set_transform((0, float("inf"), 0))
        with pytest.raises(tumble.TumbleError):
            world.create_ball_joint(b, b, anchor=(0, 0, 0))
        with pytest.raises(TypeError, match="unknown option"):
            world.create_body(colour="red")
        b.destroy()
        with pytest.raises(tumble.TumbleError, match="stale or null body id"):
            b.linear_velocity
        assert tumble.last_error() != ""
        tumble.clear_last_error()
        assert tumble.last_error() == ""
    bad = tmp_path / "bad.json"
    bad.write_text('{"bodies": [{"shape": {"type": "sphere", "radius": -1}}]}')
    with pytest.raises(tumble.TumbleError, match="radius"):
        tumble.Scene(str(bad))
