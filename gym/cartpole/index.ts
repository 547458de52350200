export { CARTPOLE, CartPole, type CartPoleState } from './cartpole';
export { CartPoleVectorEnv, type CartPoleVectorOptions } from './vector';
