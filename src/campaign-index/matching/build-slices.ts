/**
 * Loop iterations between two chances for `buildInSlices` to give the event loop a turn.
 * Every generator of the build yields by it (the layout's, the word index's, the phrase
 * tables', the merge sort), so it sits here, below all three parts.
 */
export const STEPS_PER_YIELD = 4096;
