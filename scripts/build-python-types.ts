/** `npm run build:python-types`: writes the Python package's API types from the OpenAPI document (gym/build/python-types.ts). */
import { writeFileSync } from 'node:fs';
import { PYTHON_TYPES_PATH, pythonApiTypes } from '../gym/build';

writeFileSync(PYTHON_TYPES_PATH, pythonApiTypes());
console.log(`wrote ${PYTHON_TYPES_PATH}`);
