export { startGymServer, type GymServer, type GymServerOptions } from './server';
export { openApiDocument } from './openapi';
export { decodeFrame, FRAME_MAGIC } from './encode';
export { isLoopback } from './auth';
