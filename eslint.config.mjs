import next from 'eslint-config-next';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...next,
  ...nextTs,
  {
    ignores: ['node_modules/**', '.next/**', '.data/**', '.run/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', 'functions/lib/**', 'runtime/dist/**', '.next-test*/**'],
  },
];

export default config;
