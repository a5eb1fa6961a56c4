#!/bin/sh
# The demo's joint scenes headless, in TAP: each runs a few seconds and its summary must show no
# NaN, joined anchors held together (max_joint_gap, m, a small fraction of the links' size), no
# body centre below the ground (min_body_y) and the scene's own figure against a geometric answer.
# usage: joint_scenes_test.sh DEMO
demo=$1
echo "1..6"
status=0

# The value of "key": in the JSON line.
field() {
	echo "$1" | tail -n 1 | sed -n "s/.*\"$2\": \([^,}]*\).*/\1/p"
}

# run N NAME STEPS MAX_GAP MIN_Y: runs the scene, checks the common figures; leaves the output in
# $log and returns non-zero (with a message in $why) when a check fails.
run() {
	log=$(env -u DISPLAY -u WAYLAND_DISPLAY "$demo" --headless "$2" --steps "$3" 2>&1)
	rc=$?
	echo "$log" | sed 's/^/# /'
	why=""
	if [ $rc -ne 0 ]; then
		why="tumble-demo exited with status $rc"
		return 1
	fi
	if ! echo "$log" | tail -n 1 | grep -q "^{\"scene\": \"$2\", .*\"nan\": false"; then
		why="the last line is not the $2 summary without NaN"
		return 1
	fi
	gap=$(field "$log" max_joint_gap)
	lowest=$(field "$log" min_body_y)
	if ! awk -v g="$gap" -v m="$4" 'BEGIN { exit !(g != "" && g + 0 <= m + 0) }'; then
		why="joined anchors $gap m apart (at most $4 m)"
		return 1
	fi
	if ! awk -v y="$lowest" -v m="$5" 'BEGIN { exit !(y != "" && y + 0 >= m + 0) }'; then
		why="a body's centre at y = $lowest m (the ground is y = 0; at least $5 m)"
		return 1
	fi
	return 0
}

# within VALUE LOW HIGH
within() {
	awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v + 0 >= lo + 0 && v + 0 <= hi + 0) }'
}

report() {
	if [ -z "$why" ]; then
		echo "ok $1 - $2"
	else
		echo "not ok $1 - $2: $why"
		status=1
	fi
}

# Bridge: 16 planks of 0.6 m (9.6 m) between hinges 9.2 m apart. A catenary of that length and
# span sags a (cosh(4.6 / a) - 1) = 1.198 m (9.6 = 2 a sinh(4.6 / a), a = 9.03); the boxes pull it
# lower. No path 9.6 m long between the posts reaches deeper than sqrt(4.8^2 - 4.6^2) = 1.371 m.
# The bridge swings under the boxes (its hinges keep the energy) and a box may slide off onto the
# ground: the floor is a box resting there (half extent 0.3 m), not the height of the deck.
if run 1 bridge 300 0.03 0.29; then
	sag=$(echo "$log" | sed -n 's/.*the lowest \([0-9.]*\) m below the posts.*/\1/p')
	# The length bounds the sag strictly; a swinging bridge may rise above its catenary.
	within "$sag" 0.9 1.39 || why="the bridge sags $sag m (catenary 1.198 m, at most 1.371 m)"
fi
report 1 "bridge: 16 planks on hinges hold together, sag within the catenary's and the length's"

# Chain: 24 links of 0.44 m released horizontally swing straight down after 1.5 s; the last
# link's centre is then 23.5 x 0.44 = 10.34 m below the pivot (less when not quite straight).
if run 2 chain 90 0.05 0.5; then
	below=$(echo "$log" | sed -n 's/.*, \([0-9.]*\) m below it.*/\1/p')
	within "$below" 9.8 10.40 || why="the last link $below m below the pivot (straight: 10.34 m)"
fi
report 2 "chain: 24 capsule links on ball joints hang straight down at the bottom of the swing"

# Ragdolls: on the stairs or the ground, no part sinks: the thinnest limb's radius is 0.045 m.
run 3 ragdoll 300 0.05 0.03
report 3 "ragdoll: three ragdolls down the stairs, joints held, nothing through the ground"

# Door: the motor drives it to +1.2 rad, then after 3 s to -1.2 rad; it stops at its limits.
if run 4 door 360 0.01 0.1; then
	range=$(echo "$log" | sed -n 's/.*(reached \([-+0-9.]*\) to \([-+0-9.]*\),.*/\1 \2/p')
	lo=${range% *}
	hi=${range#* }
	if ! within "$lo" -1.23 -1.17 || ! within "$hi" 1.17 1.23; then
		why="the door swung from $lo to $hi rad (limits -1.2, +1.2)"
	fi
fi
report 4 "door: the motorised hinge swings to both limits and stops there"

# Car: full throttle drives the wheels at 14 rad/s; rolling without slipping on the flat, the
# car goes at 14 x 0.35 m = 4.9 m/s before it reaches the ramp (1.5 s).
if run 5 car 90 0.01 0.2; then
	speed=$(echo "$log" | sed -n 's/.*steer   \([0-9.]*\) m\/s.*/\1/p')
	within "$speed" 4.80 5.00 || why="the car at $speed m/s (rolling at 4.9 m/s)"
fi
report 5 "car: wheel motors roll the car at omega r"

# Car, 5 s: up the ramp, over the plateau and down, over the bumps and into the boxes: at most
# 4.9 m/s x 5 s = 24.5 m (plus the faster roll down the ramp), and more than 15 m.
if run 6 car 300 0.02 0.2; then
	far=$(echo "$log" | sed -n 's/.*, \([0-9.]*\) m from the start.*/\1/p')
	within "$far" 15 27 || why="the car went $far m in 5 s (15 to 27 m)"
fi
report 6 "car: over the ramp, the bumps and the boxes"
exit $status
