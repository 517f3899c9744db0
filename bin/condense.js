#!/usr/bin/env node
import { main } from '../dist/cli-bundle/main.js';

main();
