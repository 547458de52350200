export * from './action';
export * from './manifest';
export * from './records';
export * from './settings';
