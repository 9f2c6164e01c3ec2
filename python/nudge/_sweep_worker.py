"""What a Ray worker runs for nudge.sweep (a batch of a sweep's points) and nudge.gradients
(a batch of gradients). The worker keeps the evaluator or simulator of the last scene it
served, so a batch costs its rollouts and not a scene to parse and a simulator to build."""
from . import _nudge

_last = {}  # (fingerprint, precision) -> SweepEvaluator, one entry


def evaluate_points(scene_json, source, params, mode, precision, fingerprint, indices):
    """[(index, values, status)] of the points, in the order given."""
    key = (fingerprint, precision)
    evaluator = _last.get(key)
    if evaluator is None:
        scene = _nudge.parse_scene(scene_json, source)
        plan = _nudge.SweepPlan(scene, params, mode)
        if plan.fingerprint(scene) != fingerprint:
            raise _nudge.Error("the worker read a different scene from the one the sweep began with "
                               "(its nudge version or its files differ from the driver's)")
        evaluator = _nudge.SweepEvaluator(scene, plan, precision)
        _last.clear()
        _last[key] = evaluator
    return [evaluator.evaluate(i) for i in indices]


_last_simulator = {}  # (scene hash, precision) -> Simulator, one entry


def gradients_of(scene_json, source, precision, scene_hash, parameter_sets):
    """[(loss, {name: dL/dvalue})] of each dict of parameter values, in the order given."""
    key = (scene_hash, precision)
    sim = _last_simulator.get(key)
    if sim is None:
        sim = _nudge.Simulator(_nudge.parse_scene(scene_json, source), device="cpu", precision=precision, threads=1)
        _last_simulator.clear()
        _last_simulator[key] = sim
    return [sim.gradient(values) for values in parameter_sets]
