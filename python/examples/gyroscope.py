"""A gyroscope: a disc (radius 0.2 m, 2 cm thick) spinning at 100 rad/s about its axle, the axle
held horizontal on a ball joint 0.15 m from the disc's centre, then released. The textbook's
steady precession rate is m g r / (Is ws); Tumble turns a body on one ball joint by its
torque-free motion about the joint in each substep (docs/joints.md), and the figure shows the
measured azimuth against the formula. Writes gyroscope.png."""

import math

import _common
import matplotlib.pyplot as plt
import numpy as np

import tumble

G, DT = 9.81, 1.0 / 60.0


def run(out_dir=None, a=0.2, hh=0.01, r=0.15, ws=100.0, seconds=4.0):
    with tumble.World(enable_sleep=False) as world:
        pivot = world.create_body("static", position=(0, 2, 0))
        disc = world.create_body(
            position=(r, 2, 0), rotation=tumble.quat_from_axis_angle((0, 0, 1), -math.pi / 2), angular_velocity=(ws, 0, 0)
        )
        disc.create_shape(tumble.Cylinder(a, hh))
        world.create_ball_joint(pivot, disc, anchor=(0, 2, 0))
        disc.angular_velocity = (ws, 0, 0)
        m = disc.mass
        traj = world.record(int(seconds / DT), DT, 4)
    t = traj["time"]
    q = traj["rotations"][:, 1].astype(float)
    axle = np.array([tumble.rotate(qq, (0, 1, 0)) for qq in q])
    azimuth = np.unwrap(np.arctan2(-axle[:, 2], axle[:, 0]))  # about +y, from +x
    dip = np.degrees(np.arcsin(np.clip(-axle[:, 1], -1, 1)))
    i_s = 0.5 * m * a * a
    rate_formula = m * G * r / (i_s * ws)
    rate = float(azimuth[-1] / t[-1])

    fig, (a1, a2) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    a1.plot(t, np.degrees(azimuth), label="Tumble (ball joint)")
    a1.plot(t, np.degrees(rate_formula * t), "--", label="m g r / (Is ws) t")
    a1.set_ylabel("precession azimuth (deg)")
    a1.set_title(f"Gyroscope: {rate:.3f} rad/s measured, {rate_formula:.3f} rad/s by the formula", fontsize=10)
    a1.legend(loc="upper left")
    a2.plot(t, dip)
    a2.set_xlabel("time (s)")
    a2.set_ylabel("axle dip below horizontal (deg)")
    fig.tight_layout()
    png = _common.out_path("gyroscope.png", out_dir)
    fig.savefig(png, dpi=90)
    plt.close(fig)
    return {"png": png, "rate": rate, "formula": rate_formula, "max_dip": float(dip.max())}


if __name__ == "__main__":
    r = run()
    print(f"gyroscope: precession {r['rate']:.4f} rad/s, formula m g r / (Is ws) = {r['formula']:.4f} rad/s "
          f"(ratio {r['rate'] / r['formula']:.3f}); axle dips at most {r['max_dip']:.2f} deg; {r['png']}")
