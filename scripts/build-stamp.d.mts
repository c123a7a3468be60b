/** Types of scripts/build-stamp.mjs for its test (the script runs as plain JavaScript). */
export interface BuildStamp {
  inputs: string;
  builtAt: string;
}
export declare const BUILD_INPUTS: string[];
export declare const BUILD_OUTPUTS: string[];
export declare const STAMP_FILE: string;
export declare function inputsHash(root: string, env?: Record<string, string | undefined>): string;
export declare function readStamp(root: string): BuildStamp | null;
export declare function buildDecision(state: {
  stamp: BuildStamp | null;
  inputs: string;
  outputsPresent: boolean;
}): { build: boolean; reason: string };
export declare function outputsPresent(root: string): boolean;
export declare function beginBuild(root: string, env?: Record<string, string | undefined>): void;
export declare function endBuild(root: string, now?: Date): void;
