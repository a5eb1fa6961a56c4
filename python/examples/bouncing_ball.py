"""A bouncing ball: restitution e = 0.8 dropped from 1 m; each apex is e^2 times the one before
(Newton's impact law). Writes bouncing_ball.png: the height with the e^(2k) h apexes, and the
kinetic, potential and total energy (the total drops by 1 - e^2 at each impact)."""

import _common
import matplotlib.pyplot as plt
import numpy as np

import tumble

G, DT = 9.81, 1.0 / 60.0


def run(out_dir=None, e=0.8, h=1.0, r=0.1, seconds=4.0):
    with tumble.World(restitution_threshold=0.0, enable_sleep=False) as world:
        world.create_body("static", position=(0, -0.5, 0)).create_shape(tumble.Box(5, 0.5, 5))
        ball = world.create_body(position=(0, h + r, 0))
        ball.create_shape(tumble.Sphere(r), restitution=e)
        m = ball.mass
        traj = world.record(int(seconds / DT), DT, 4)
    t = traj["time"]
    y = traj["positions"][:, 1, 1].astype(float) - r  # the ball's bottom
    ke = traj["kinetic_energies"][:, 1].astype(float)
    pe = m * G * y
    vy = np.diff(y)
    apexes = [float(max(y[i], y[i + 1])) for i in range(1, len(vy)) if vy[i - 1] > 0 >= vy[i]]
    closed = [h * e ** (2 * (k + 1)) for k in range(len(apexes))]

    fig, (a1, a2) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    a1.plot(t, y, label="height of the ball's bottom")
    for k, c in enumerate(closed):
        a1.axhline(c, color="gray", ls=":", lw=0.8, label="e^(2k) h" if k == 0 else None)
    a1.set_ylabel("height (m)")
    a1.legend(loc="upper right")
    a1.set_title(f"Bouncing ball, e = {e}: apexes {', '.join(f'{a:.3f}' for a in apexes[:3])} m")
    a2.plot(t, ke, label="kinetic")
    a2.plot(t, pe, label="potential m g y")
    a2.plot(t, ke + pe, label="total")
    a2.set_xlabel("time (s)")
    a2.set_ylabel("energy (J)")
    a2.legend(loc="upper right")
    fig.tight_layout()
    png = _common.out_path("bouncing_ball.png", out_dir)
    fig.savefig(png, dpi=90)
    plt.close(fig)
    return {"png": png, "apexes": apexes, "closed_form": closed, "energy0": float(ke[0] + pe[0]), "mass": m}


if __name__ == "__main__":
    r = run()
    for k, (a, c) in enumerate(zip(r["apexes"][:4], r["closed_form"])):
        print(f"bouncing ball: apex {k + 1} {a:.4f} m, closed form e^{2 * (k + 1)} h = {c:.4f} m ({100 * (a / c - 1):+.2f} %)")
    print(r["png"])
