export { CARTPOLE, CartPole, type CartPoleState, type CartPoleStep } from './cartpole';
export { CartPoleVectorEnv, type CartPoleVectorOptions } from './vector';
