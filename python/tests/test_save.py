"""World saves from Python: a restored world steps on with the original's state hash, a rewind
keeps the Body objects valid, and damaged bytes raise the engine's message."""

import pytest

import tumble

DT = 1.0 / 60.0


def make_world():
    world = tumble.World(enable_sleep=True)
    ground = world.create_body("static", position=(0, -0.5, 0))
    ground.create_shape(tumble.Box(10, 0.5, 10))
    boxes = []
    for i in range(5):
        b = world.create_body(position=(0.1 * i, 0.5 + 1.05 * i, 0))
        b.create_shape(tumble.Box(0.5, 0.5, 0.5))
        boxes.append(b)
    ball = world.create_body(position=(3, 1, 0), linear_velocity=(-4, 0, 0))
    ball.create_shape(tumble.Sphere(0.3))
    return world, boxes


def test_a_world_from_a_save_steps_on_with_the_same_hash():
    world, _ = make_world()
    for _ in range(40):
        world.step(DT)
    data = world.save()
    assert isinstance(data, bytes) and data[:4] == b"TBSV"
    copy = tumble.World.from_save(data)
    assert copy.get_state_hash() == world.get_state_hash()
    for step in range(200):
        world.step(DT)
        copy.step(DT)
        assert copy.get_state_hash() == world.get_state_hash(), f"parted at step {step}"
    copy.destroy()
    world.destroy()


def test_a_rewind_replays_the_same_run_and_keeps_bodies_valid():
    world, boxes = make_world()
    for _ in range(20):
        world.step(DT)
    data = world.save()
    hashes = []
    boxes[2].apply_linear_impulse((0, 0, 20), boxes[2].position)
    for _ in range(100):
        world.step(DT)
        hashes.append(world.get_state_hash())
    world.restore(data)
    assert all(b.is_valid() for b in boxes)
    boxes[2].apply_linear_impulse((0, 0, 20), boxes[2].position)
    for k in range(100):
        world.step(DT)
        assert world.get_state_hash() == hashes[k]
    world.destroy()


def test_damaged_saves_raise_the_engines_message():
    world, _ = make_world()
    world.step(DT)
    data = world.save()
    before = world.get_state_hash()
    with pytest.raises(tumble.TumbleError, match="truncated|too few"):
        world.restore(data[: len(data) // 2])
    flipped = bytearray(data)
    flipped[len(data) // 3] ^= 0x10
    with pytest.raises(tumble.TumbleError, match="checksum"):
        world.restore(bytes(flipped))
    with pytest.raises(tumble.TumbleError, match="magic"):
        tumble.World.from_save(b"XXXX" + data[4:])
    assert world.get_state_hash() == before
    world.destroy()
