/** bin/kit-form.js: which form of the kit a command runs. */
export declare function distStamp(root: string): string;
export declare function distIsFresh(root: string): boolean;
export declare function kitForm(root: string, env: Record<string, string | undefined>): 'dist' | 'sources';
