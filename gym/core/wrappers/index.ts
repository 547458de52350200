export { Wrapper, ObservationWrapper, VectorWrapper, VectorObservationWrapper, isResetOnly, type WrapperState } from './wrapper';
export {
  ShapeReward,
  VectorShapeReward,
  RewardShapingSchema,
  shapeReward,
  isShaping,
  readsState,
  potentialOf,
  stackFeatures,
  type RewardShapingConfig,
  type ShapingTransition,
} from './reward-shaping';
export {
  FlatObservation,
  FeatureVectorObservation,
  PixelObservationWrapper,
  VectorFlatObservation,
  type FlatObservationKind,
} from './observation';
export {
  NormalizeObservation,
  VectorNormalizeObservation,
  NormalizeReward,
  VectorNormalizeReward,
  type NormalizeObservationOptions,
  type NormalizeObservationState,
  type NormalizeRewardOptions,
  type NormalizeRewardState,
} from './normalize';
export { RunningMeanStd, type RunningMeanStdState } from './running-mean-std';
export { FrameStackObservation, VectorFrameStackObservation } from './frame-stack';
export { TimeLimit } from './time-limit';
export { DecisionObservation, VectorDecisionObservation } from './decision-observation';
export { RecordEpisodeStatistics, VectorRecordEpisodeStatistics } from './episode-statistics';
export {
  MacroAction,
  VectorCountPrimitiveSteps,
  MAX_PRIMITIVES_PER_DECISION,
  type DecisionFeatures,
  type MacroController,
  type MacroPlanner,
  type MacroStepInfo,
  type MacroActionOptions,
} from './macro-action';
