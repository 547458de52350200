/** Agents: the registry (random, scripted, ppo, openai), and the pieces a command needs to build one. */
export { agentNames, availableBaselines, createAgent, registerAgent, type AgentOptions } from './registry';
export { createRandomAgent } from './random-agent';
export { createScriptedAgent, loadScriptedPolicy, scriptedAgentFile } from './scripted-agent';
export { OpenAiAgentOptions, agentOptionsFromCli, parseOpenAiAgentOptions } from './ui-tars/options';
export type { Agent, AgentContext, AgentTurn, ScriptedPolicy } from './agent';
