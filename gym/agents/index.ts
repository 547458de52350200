/** Agents: the registry (random, scripted, ppo, openai), and the pieces a command needs to build one. */
export { agentNames, agentTraining, availableBaselines, gameLacks, createAgent, registerAgent, type AgentOptions } from './registry';
export { GENERIC_POLICY_AGENT, GENERIC_POLICY_FILE, GENERIC_POLICY_INFO_FILE, GenericPolicyInfo, genericPolicyFile, type TrainedAgent } from './generic-policy';
export { createRandomAgent } from './random-agent';
export { createScriptedAgent, loadScriptedPolicy, scriptedAgentFile } from './scripted-agent';
export { OpenAiAgentOptions, agentOptionsFromCli, parseOpenAiAgentOptions } from './ui-tars/options';
export type { Agent, AgentContext, AgentTurn, ScriptedPolicy } from './agent';
