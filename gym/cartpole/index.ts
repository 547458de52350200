export { CARTPOLE, CartPole, type CartPoleState } from './cartpole';
export { CartPoleVectorEnv, cartPoleTask, type CartPoleVectorOptions } from './vector';
