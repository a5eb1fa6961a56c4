"""A pendulum: a small ball on a hinge, released at 10 degrees. Its period against the closed form
T = 2 pi sqrt((d^2 + 2/5 r^2) / (g d)) (1 + a^2/16 + 11 a^4/3072) of a physical pendulum.
Writes pendulum.png: the angle against time beside the small-angle cosine."""

import math

import _common
import matplotlib.pyplot as plt
import numpy as np

import tumble

G, DT = 9.81, 1.0 / 60.0


def run(out_dir=None, d=1.0, r=0.05, degrees=10.0, seconds=8.0):
    a = math.radians(degrees)
    with tumble.World(enable_sleep=False) as world:
        pivot = world.create_body("static", position=(0, 2, 0))
        bob = world.create_body(position=(d * math.sin(a), 2 - d * math.cos(a), 0))
        bob.create_shape(tumble.Sphere(r))
        world.create_hinge_joint(pivot, bob, anchor=(0, 2, 0), axis=(0, 0, 1))
        traj = world.record(int(seconds / DT), DT, 4)
    t = traj["time"]
    p = traj["positions"][:, 1].astype(float)
    theta = np.arctan2(p[:, 0], 2 - p[:, 1])
    idx = np.nonzero(np.sign(theta[:-1]) != np.sign(theta[1:]))[0]
    cross = t[idx] + DT * theta[idx] / (theta[idx] - theta[idx + 1])
    period = 2 * (cross[-1] - cross[0]) / (len(cross) - 1)
    t0 = 2 * math.pi * math.sqrt((d * d + 0.4 * r * r) / (G * d))
    closed = t0 * (1 + a * a / 16 + 11 * a**4 / 3072)

    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(t, np.degrees(theta), label="Tumble (hinge joint)")
    ax.plot(t, degrees * np.cos(2 * math.pi * t / closed), "--", label="a cos(2 pi t / T), T closed form")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("angle (degrees)")
    ax.set_title(f"Pendulum: period {period:.4f} s, closed form {closed:.4f} s")
    ax.legend(loc="upper right")
    fig.tight_layout()
    png = _common.out_path("pendulum.png", out_dir)
    fig.savefig(png, dpi=90)
    plt.close(fig)
    return {"png": png, "period": period, "closed_form": closed, "max_angle": float(np.degrees(theta).max())}


if __name__ == "__main__":
    r = run()
    print(f"pendulum: period {r['period']:.5f} s, closed form {r['closed_form']:.5f} s "
          f"({100 * (r['period'] / r['closed_form'] - 1):+.3f} %); amplitude {r['max_angle']:.3f} deg (released at 10); {r['png']}")
