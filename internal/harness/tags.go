package harness

// LearnerTag is the build tag of a learner's program: its harness holds
// only the learner's side of the protocol.
const LearnerTag = "kurs_learner"
