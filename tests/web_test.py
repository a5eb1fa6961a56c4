#!/usr/bin/env python3
# The browser test (docs/web.md): builds the WebAssembly module (scripts/web.sh, cached in the
# meson build's web/), serves the page, runs scenes in headless Chromium and compares them with
# the native `tumble run` of the same scene and step count; takes a screenshot and looks for the
# scene's colours in it. Exit 77 (skipped) without emcc or chromium.
# usage: web_test.py SOURCE_ROOT BUILD_ROOT TUMBLE_EXE
import csv
import http.server
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

# (scene, steps, how): "hash": the `tumble run` state hash, bit for bit; a number: every position
# and rotation component within it. Every case is the same bits as the native build: the falling
# boxes tumble and pile up over their 300 steps, where a last-bit difference would grow to
# centimetres (docs/web.md).
CASES = [("pyramid", 120, "hash"), ("boxes", 300, "hash"), ("chain", 300, "hash")]
COLUMNS = ["x", "y", "z", "qx", "qy", "qz", "qw", "vx", "vy", "vz", "wx", "wy", "wz"]


def chromium_command():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return [path, "--headless", "--no-sandbox", "--disable-gpu", "--use-angle=swiftshader",
                    "--enable-unsafe-swiftshader", "--no-first-run", "--disable-extensions",
                    "--window-size=960,640"]
    return None


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the page's folder; POST /result?name=N keeps the body (the page's report)."""
    results = {}
    event = threading.Condition()

    def do_POST(self):
        name = self.path.split("name=", 1)[-1]
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        with Handler.event:
            Handler.results[name] = json.loads(body)
            Handler.event.notify_all()
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


def run_page(chromium, url, name, profile, timeout=45):
    """Open the page on the real clock and wait for its POSTed result."""
    proc = subprocess.Popen(chromium + [f"--user-data-dir={profile}", url],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + timeout
        with Handler.event:
            while name not in Handler.results and time.time() < deadline:
                Handler.event.wait(0.2)
        return Handler.results.pop(name, None)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def native(tumble, scene_path, steps, work):
    out = os.path.join(work, "native.csv")
    text = subprocess.run([tumble, "run", scene_path, "--steps", str(steps), "--json", "--out", out,
                           "--every", str(steps)], capture_output=True, text=True, check=True).stdout
    summary = json.loads(text.strip().splitlines()[-1])
    states = []
    with open(out) as f:
        for row in csv.DictReader(f):
            if int(row["step"]) == steps:
                states.append([float(row[c]) for c in COLUMNS])
    return summary["state_hash"], states


def read_png(path):
    """RGB pixels of an 8-bit, non-interlaced PNG (what Chromium writes): zlib and the five
    filters of the PNG specification, section 9."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and chunk[12] == 0, "only 8-bit, non-interlaced PNG"
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = prev[i]
            c = prev[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, [(r[i], r[i + 1], r[i + 2]) for r in rows for i in range(0, stride, channels)]


class Report:
    """TAP lines, `ok N - ...` or `not ok N - ...`, numbered as they come (the test command
    counts them; scripts/test.sh)."""

    def __init__(self):
        self.count = 0
        self.failures = 0

    def __call__(self, ok, text):
        self.count += 1
        self.failures += 0 if ok else 1
        print(f"{'ok' if ok else 'not ok'} {self.count} - {text}")


def main():
    source, build, tumble = sys.argv[1:4]
    report = Report()
    chromium = chromium_command()
    if shutil.which("emcc") is None or chromium is None:
        print("skipped: needs emcc (Debian emscripten) and chromium")
        return 77
    out = os.path.join(build, "web")
    env = dict(os.environ, TB_WEB_BUILD_DIR=out)
    start = time.time()
    build_run = subprocess.run([os.path.join(source, "scripts", "web.sh"), "build"], env=env,
                               capture_output=True, text=True)
    if build_run.returncode != 0:
        print(build_run.stdout + build_run.stderr)
        report(False, "scripts/web.sh build failed")
        return 1
    print(f"wasm build: {time.time() - start:.1f} s (cached in {out})")

    handler = lambda *a, **k: Handler(*a, directory=out, **k)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    with tempfile.TemporaryDirectory() as work:
        for scene, steps, how in CASES:
            page = run_page(chromium, f"{base}?scene={scene}&steps={steps}&test=1&report=1", scene,
                            os.path.join(work, "profile"))
            if page is None or "error" in page:
                report(False, f"{scene}: the page gave no result ({page})")
                continue
            folder = "web/scenes" if scene == "boxes" else "scenes"
            native_hash, native_states = native(tumble, os.path.join(source, folder, scene + ".json"),
                                                steps, work)
            values = [float(v) for v in page["states"].split(",")]
            page_states = [values[i:i + 13] for i in range(0, len(values), 13)]
            # Positions and rotations (the first 7 of each body's 13), then the velocities.
            worst = max((abs(a - b) for p, n in zip(page_states, native_states)
                         for a, b in zip(p[:7], n[:7])), default=float("inf"))
            worst_v = max((abs(a - b) for p, n in zip(page_states, native_states)
                           for a, b in zip(p[7:], n[7:])), default=float("inf"))
            same_count = len(page_states) == len(native_states)
            line = (f"{scene} {steps} steps: wasm hash {page['hash']['run']}, native {native_hash}, "
                    f"largest pose difference {worst:.3g} (velocity {worst_v:.3g}), pose checksum {page['poseChecksum']:.6f}, "
                    f"step {page['stepMs']:.3f} ms, frame {page['frameMs']:.3f} ms "
                    f"(max {page['frameMaxMs']:.3f}), WebGL {page['webgl']}")
            ok = same_count and (page["hash"]["run"] == native_hash if how == "hash" else worst <= how)
            report(ok, line)

        # A screenshot of the falling boxes after 60 steps (virtual time: the page has drawn its
        # last frame when it is taken).
        shot = os.path.join(out, "screenshot_boxes.png")
        if os.path.exists(shot):
            os.remove(shot)
        subprocess.run(chromium + [f"--user-data-dir={os.path.join(work, 'profile2')}",
                                   "--virtual-time-budget=20000", f"--screenshot={shot}",
                                   f"{base}?scene=boxes&steps=60&test=1"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        if not os.path.exists(shot):
            report(False, "no screenshot")
        else:
            width, height, pixels = read_png(shot)
            # The page's colours (web/app.js): awake boxes orange, asleep blue, the ground grey,
            # each shaded by 0.35 to 1.0 of its colour.
            orange = sum(1 for r, g, b in pixels if r > 120 and 0.45 * r < g < 0.75 * r and b < 0.3 * r)
            grey = sum(1 for r, g, b in pixels if 50 < r < 140 and abs(r - g) < 12 and 0 < b - r < 16)
            ok = orange > 2000 and grey > 2000
            report(ok, f"screenshot {width}x{height} ({shot}): {orange} box pixels, {grey} ground pixels")
    server.shutdown()
    print(f"total {time.time() - start:.1f} s")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
