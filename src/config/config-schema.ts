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
  })
  .strict()
  .refine((p) => !(p.tokenFile && p.tokenCommand), {message: 'set tokenFile or tokenCommand, not both'})
  .refine((p) => p.refresh === undefined || p.refresh === 0 || p.refresh >= 1, {message: 'refresh must be 0 (manual) or at least 1', path: ['refresh']});
export type Profile = z.infer<typeof ProfileSchema>;

export const ConfigFileSchema = z
  .object({
    defaultProfile: z.string().optional(),
    profiles: z.record(z.string(), ProfileSchema).default({}),
  })
  .strict();
export type ConfigFile = z.infer<typeof ConfigFileSchema>;
