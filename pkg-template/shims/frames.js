// createTurnSignalEmitter(emit) of The Framework's turn-gate (see docs/frames.md): the returned
// function takes one turn's text and calls `emit` with each event, in order. The dedupe state
// (errors already reported, ready-for-merge sent, the last pull request) lives here, opaque;
// the core computes each step from (state, text).
exports.createTurnSignalEmitter = function createTurnSignalEmitter(emit) {
  var state = null;
  return function (text) {
    var step = __call("turnSignalEmitterStep", [state, text]);
    state = step.state;
    for (var i = 0; i < step.events.length; i++) emit(step.events[i]);
  };
};
