"""Falling-box rain: 200 boxes released from rest in a grid of layers; until the first one lands
every box is in free fall, so the total kinetic energy is M g^2 t^2 / 2 (M the total mass); then
the impacts and friction take it, and the pile comes to rest. Writes box_rain.png: the kinetic
energy against time beside the free-fall closed form."""

import _common
import matplotlib.pyplot as plt
import numpy as np

import tumble

G, DT = 9.81, 1.0 / 60.0


def run(out_dir=None, nx=5, nz=5, layers=8, seconds=5.0):
    with tumble.World() as world:
        world.create_body("static", position=(0, -0.5, 0)).create_shape(tumble.Box(20, 0.5, 20))
        bottom = 2.0
        for k in range(layers):
            for i in range(nx):
                for j in range(nz):
                    b = world.create_body(
                        position=(0.6 * (i - nx / 2) + 0.05 * k, bottom + 0.6 * k, 0.6 * (j - nz / 2)),
                        rotation=tumble.quat_from_euler_xyz(0.3 * k, 0.2 * i, 0.1 * j),
                    )
                    b.create_shape(tumble.Box(0.2, 0.2, 0.2), friction=0.6)
        total_mass = sum(b.mass for b in world.bodies)
        traj = world.record(int(seconds / DT), DT, 4)
    t = traj["time"]
    ke = traj["kinetic_energies"].astype(float).sum(axis=1)
    closed = 0.5 * total_mass * (G * t) ** 2
    # The lowest box's corner reaches the ground after it has fallen (bottom - its reach), the
    # farthest a 0.2 m cube's point can be from its centre: sqrt(3) 0.2.
    first_contact = np.sqrt(2 * (bottom - np.sqrt(3) * 0.2) / G)
    before = t < first_contact - DT
    worst = float(np.max(np.abs(ke[before] - closed[before]) / np.maximum(closed[before], 1e-9))[()]) if before.any() else 0.0

    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.plot(t, ke, label=f"Tumble: {nx * nz * layers} boxes")
    ax.plot(t[t < 1.2], closed[t < 1.2], "--", label="free fall M g^2 t^2 / 2")
    ax.axvline(first_contact, color="gray", ls=":", lw=0.8, label="first box can touch")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("kinetic energy (J)")
    ax.set_title(f"Box rain: peak {ke.max():.0f} J, {ke[-1]:.2f} J at {t[-1]:.0f} s")
    ax.legend(loc="upper right")
    fig.tight_layout()
    png = _common.out_path("box_rain.png", out_dir)
    fig.savefig(png, dpi=90)
    plt.close(fig)
    return {"png": png, "free_fall_error": worst, "peak": float(ke.max()), "final": float(ke[-1]), "first_contact": float(first_contact)}


if __name__ == "__main__":
    r = run()
    print(f"box rain: before the first landing ({r['first_contact']:.3f} s) the kinetic energy is within "
          f"{100 * r['free_fall_error']:.3f} % of M g^2 t^2 / 2; peak {r['peak']:.1f} J, {r['final']:.3f} J at the end; {r['png']}")
