"""Nudge from Python: scenes, rollouts and their gradients as NumPy arrays.

    import nudge
    scene = nudge.load_scene("scenes/projectile.json")
    sim = nudge.Simulator(scene, device="cpu")
    states = sim.simulate()                 # {"x": (steps + 1, particles, 3), ...}
    loss, grads = sim.gradient()            # grads: {parameter name: dL/dvalue}
    loss = sim.loss({"initial_velocity": scene.parameter("initial_velocity") * 1.1})
    result = sim.optimize(callback=lambda info: print(info["loss"]))  # the scene's optimiser
    entries = nudge.gradcheck(scene, ["initial_velocity"])             # against central differences
    table = nudge.sweep(scene, ["initial_velocity[0,0]=1:5:20"], "t.csv", ray=None)  # or ray="auto"
    batch = nudge.gradients(scene, [{"drag": [[0.1]]}, {"drag": [[0.2]]}], ray=None)  # [(loss, grads)]

Parameters are named as in scene files (`scene.parameter_names()`); every engine error
is raised as nudge.Error with the engine's message.
"""
from ._nudge import Error, Scene, Simulator, gradcheck, import_robot, load_scene, parse_scene
from .parameter_sweep import gradients, read_sweep, sweep, write_parquet

__all__ = ["Error", "Scene", "Simulator", "gradcheck", "gradients", "import_robot", "load_scene", "parse_scene",
           "read_sweep", "sweep",
           "write_parquet"]
