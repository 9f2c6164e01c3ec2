"""What a Ray worker runs for nudge.sweep: a batch of a sweep's points. The worker keeps
the evaluator (its simulator) of the last sweep it served, so a batch costs its rollouts
and not a scene to parse and a simulator to build."""
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
