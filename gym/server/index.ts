export { startGymServer, type GymServer, type GymServerOptions } from './server';
export { openApiDocument } from './openapi';
export { decodeFrame, FRAME_MAGIC } from './encode';
export { isLoopback } from './auth';
// The encoders and request schemas of the session routes, for other fronts on sessions (live tickets).
export { encode, resetBody, stepBody, type Extras } from './encode';
export { StepBody } from './schemas';
