// The config file's shape (README.md, "Connecting to a real server"), in its own module so that
// zod loads only when a config file is read or written (profile.ts).
import {z} from 'zod';

export const ProfileSchema = z
  .object({
    url: z.string().min(1),
    tokenFile: z.string().min(1).optional(),
    tokenCommand: z.string().min(1).optional(),
    refresh: z.number().min(0).optional(),
    timeout: z.number().positive().optional(),
    readOnly: z.boolean().optional(),
    caFile: z.string().min(1).nullable().optional(),
    insecure: z.boolean().optional(),
    activityLog: z.string().min(1).optional(),
    staleDays: z.number().int().min(1).max(36500).optional(),
    mouse: z.boolean().optional(),
  })
  .strict()
  .refine((p) => !(p.tokenFile && p.tokenCommand), {message: 'set tokenFile or tokenCommand, not both'})
  .refine((p) => p.refresh === undefined || p.refresh === 0 || p.refresh >= 1, {message: 'refresh must be 0 (manual) or at least 1', path: ['refresh']});
export type Profile = z.infer<typeof ProfileSchema>;

/**
 * A JSON object can hold a key `__proto__` of its own, but zod's record drops it without a word,
 * and a plain object cannot hold it as a profile: said as the file's error instead, on reading and
 * on saving (the profiles are then looked up as own properties only: profile.ts, profileNamed).
 */
const NoProtoKey = z.custom<unknown>((value) => !(typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')), {
  message: '"__proto__" cannot be a profile name',
});

export const ConfigFileSchema = z
  .object({
    defaultProfile: z.string().optional(),
    profiles: NoProtoKey.pipe(z.record(z.string(), ProfileSchema)).default({}),
  })
  .strict();
export type ConfigFile = z.infer<typeof ConfigFileSchema>;
