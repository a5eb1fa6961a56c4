#!/usr/bin/env python3
"""Writes scenes/terrain.json: the same wavy bowl as a heightfield (left, x = -12) and as a
triangle mesh (right, x = +12), with 36 bodies of every convex shape type dropped on each.
The surface is y = A sin(2 pi x / Lx) cos(2 pi z / Lz) + B (x^2 + z^2) in each body's frame.
usage: scripts/make_terrain_scene.py > scenes/terrain.json"""
import json
import math

N, SPACING = 25, 0.75  # samples per side, m
A, LX, LZ, B = 0.6, 7.0, 9.0, 0.03


def height(x, z):
    return A * math.sin(2 * math.pi * x / LX) * math.cos(2 * math.pi * z / LZ) + B * (x * x + z * z)


def coord(i):
    return (i - 0.5 * (N - 1)) * SPACING


heights = [round(height(coord(c), coord(r)), 4) for r in range(N) for c in range(N)]
vertices = [[round(coord(c), 4), heights[r * N + c], round(coord(r), 4)]
            for r in range(N) for c in range(N)]
triangles = []
for r in range(N - 1):
    for c in range(N - 1):
        p00, p01, p10 = r * N + c, r * N + c + 1, (r + 1) * N + c
        p11 = p10 + 1
        # Counter-clockwise seen from above; the diagonals alternate (a mesh need not be a grid).
        if (r + c) % 2 == 0:
            triangles += [[p00, p10, p11], [p00, p11, p01]]
        else:
            triangles += [[p00, p10, p01], [p01, p10, p11]]

shapes = [
    {"type": "sphere", "radius": 0.3},
    {"type": "box", "half_extents": [0.3, 0.2, 0.25]},
    {"type": "capsule", "radius": 0.18, "half_height": 0.25},
    {"type": "cylinder", "radius": 0.28, "half_height": 0.2},
    {"type": "cone", "radius": 0.3, "half_height": 0.3},
    {"type": "hull", "points": [[0.3, 0, 0], [-0.3, 0.05, 0.1], [0, 0.28, 0], [0, -0.2, 0.1],
                                [0.1, 0, 0.3], [-0.1, 0, -0.3], [0.2, 0.2, -0.2]]},
]
bodies = [
    {"name": "heightfield", "type": "static", "position": [-12, 0, 0],
     "shape": {"type": "heightfield", "rows": N, "columns": N, "spacing": [SPACING, SPACING],
               "heights": heights}},
    {"name": "mesh", "type": "static", "position": [12, 0, 0],
     "shape": {"type": "mesh", "vertices": vertices, "triangles": triangles}},
]
for side, cx in (("hf", -12.0), ("mesh", 12.0)):
    for i in range(36):
        x, z = -6.0 + 2.4 * (i % 6), -6.0 + 2.4 * (i // 6)
        bodies.append({
            "name": f"{side}{i}",
            "position": [round(cx + x, 3), round(height(x, z) + 1.5 + 0.1 * (i % 4), 3), round(z, 3)],
            "rotation": {"euler_xyz_deg": [17 * i % 90, 31 * i % 180, 11 * i % 60]},
            "shape": shapes[i % len(shapes)],
        })
scene = {
    "description": "a wavy bowl as a heightfield (left) and as a triangle mesh (right), "
                   "36 bodies of every shape type rolling on each",
    "seconds": 12,
    "sleep": True,
    "defaults": {"density": 800, "friction": 0.6, "restitution": 0.1},
    "bodies": bodies,
}
print(json.dumps(scene, separators=(",", ":")).replace(',{"name"', ',\n{"name"'))
