"""Physics through the Python API against closed forms: a pendulum's period, free fall, a
bounce's e^2 h apex, a free tumbling box's energy and angular momentum, and rolling."""

import math

import numpy as np
import pytest

import tumble

G = 9.81
DT = 1.0 / 60.0


def ground(world, y=0.0):
    """A static box whose top face is at height y."""
    body = world.create_body("static", position=(0, y - 0.5, 0))
    body.create_shape(tumble.Box(20, 0.5, 20))
    return body


def test_free_fall_matches_half_g_t_squared():
    with tumble.World() as world:
        ball = world.create_body(position=(0, 10, 0))
        ball.create_shape(tumble.Sphere(0.1))
        traj = world.record(60, DT, 4)
        t = traj["time"]
        y = traj["positions"][:, 0, 1]
        # The solver's substep is symplectic Euler (v first, then x with the new v) with h = dt / 4:
        # y_k = y0 - g h^2 k (k + 1) / 2, i.e. the parabola lowered by g h t / 2.
        h = DT / 4
        want = 10.0 - 0.5 * G * (t**2 + h * t)
        assert np.max(np.abs(y - want)) < 2e-5
        # The parabola itself: within g h t / 2 (2 cm after one second).
        assert np.max(np.abs(y - (10.0 - 0.5 * G * t**2))) <= 0.5 * G * h * 1.0 + 1e-5
        v = traj["linear_velocities"][-1, 0, 1]
        assert v == pytest.approx(-G * 1.0, rel=1e-3)


def apexes(e, h, r=0.1, count=2):
    """The highest centre heights between bounces of a ball dropped from h (bottom height)."""
    with tumble.World(restitution_threshold=0.0, enable_sleep=False) as world:
        ground(world)
        ball = world.create_body(position=(0, h + r, 0))
        ball.create_shape(tumble.Sphere(r), restitution=e)
        y = world.record(int(6 * math.sqrt(2 * h / G) * (count + 1) / DT), DT, 4)["positions"][:, 1, 1] - r
    vy = np.diff(y)
    tops = [float(max(y[i], y[i + 1])) for i in range(1, len(vy)) if vy[i - 1] > 0 >= vy[i]]
    return tops[:count]


def test_bounce_apex_is_e_squared_h():
    for e in (0.5, 0.8):
        top = apexes(e, 1.0, count=2)
        print(f"e = {e}: apexes {top}, closed form {e**2:.4f} {e**4:.4f}")
        assert top[0] == pytest.approx(e**2 * 1.0, rel=0.03)
        assert top[1] == pytest.approx(e**4 * 1.0, rel=0.06)


def pendulum_period(d, r, amplitude):
    """T = 2 pi sqrt((d^2 + 2/5 r^2) / (g d)) (1 + a^2/16 + 11 a^4/3072)."""
    t0 = 2 * math.pi * math.sqrt((d * d + 0.4 * r * r) / (G * d))
    a2 = amplitude**2
    return t0 * (1 + a2 / 16 + 11 * a2 * a2 / 3072)


@pytest.mark.parametrize("joint", ["ball", "hinge"])
def test_pendulum_period(joint):
    d, r, a = 1.0, 0.05, math.radians(10)
    with tumble.World(enable_sleep=False) as world:
        pivot = world.create_body("static", position=(0, 2, 0))
        pos = (d * math.sin(a), 2 - d * math.cos(a), 0)
        bob = world.create_body(position=pos)
        bob.create_shape(tumble.Sphere(r))
        if joint == "ball":
            world.create_ball_joint(pivot, bob, anchor=(0, 2, 0))
        else:
            world.create_hinge_joint(pivot, bob, anchor=(0, 2, 0), axis=(0, 0, 1))
        traj = world.record(int(8.0 / DT), DT, 4)
    x = traj["positions"][:, 1, 0].astype(float)
    t = traj["time"]
    # Zero crossings of x, interpolated linearly: half periods.
    idx = np.nonzero(np.sign(x[:-1]) != np.sign(x[1:]))[0]
    cross = t[idx] + DT * x[idx] / (x[idx] - x[idx + 1])
    period = 2 * (cross[-1] - cross[0]) / (len(cross) - 1)
    want = pendulum_period(d, r, a)
    print(f"{joint} pendulum: period {period:.5f} s, closed form {want:.5f} s")
    assert period == pytest.approx(want, rel=0.005)


def test_tumbling_box_keeps_energy_and_angular_momentum():
    # Spun about the intermediate axis (y of a 0.1 x 0.2 x 0.3 box) with a small perturbation:
    # the spin flips (Dzhanibekov), while L and the kinetic energy stay what they were.
    with tumble.World(gravity=(0, 0, 0), enable_sleep=False) as world:
        box = world.create_body(position=(0, 0, 0), angular_velocity=(0.01, 5.0, 0.01))
        box.create_shape(tumble.Box(0.1, 0.2, 0.3))
        ke0 = box.kinetic_energy
        l0 = box.angular_momentum
        traj = world.record(int(10.0 / DT), DT, 4)
        ke = traj["kinetic_energies"][:, 0].astype(float)
        ke1, l1 = box.kinetic_energy, box.angular_momentum
    # The body's y axis in the world: it turns over (its world y component changes sign).
    q = traj["rotations"][:, 0].astype(float)
    axis_y = np.array([tumble.rotate(qq, (0, 1, 0))[1] for qq in q])
    print(f"tumbling box: KE {ke0:.6f} -> {ke1:.6f} J, |L| {np.linalg.norm(l0):.6f} -> {np.linalg.norm(l1):.6f}, "
          f"body y axis min {axis_y.min():.3f}")
    assert np.max(np.abs(ke - ke0)) / ke0 < 0.01
    assert np.linalg.norm(l1 - l0) / np.linalg.norm(l0) < 0.01
    assert axis_y.min() < -0.9  # it flipped


def test_rolling_ball_keeps_five_sevenths_of_its_speed():
    # A ball thrown sliding at v0 without spin rolls at 5/7 v0 once friction has done its work.
    with tumble.World(enable_sleep=False) as world:
        ground(world)
        ball = world.create_body(position=(0, 0.2, 0), linear_velocity=(3.0, 0, 0))
        ball.create_shape(tumble.Sphere(0.2), friction=0.5)
        for _ in range(120):
            world.step(DT, 4)
        v = ball.linear_velocity[0]
        w = ball.angular_velocity[2]
    print(f"rolling: v {v:.4f} m/s, closed form {3 * 5 / 7:.4f}; v + w r = {v + w * 0.2:.2e}")
    assert v == pytest.approx(3.0 * 5.0 / 7.0, rel=0.01)
    assert abs(v + w * 0.2) < 0.01
