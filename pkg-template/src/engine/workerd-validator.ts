/// <reference path="./wasm-modules.d.ts" />
/** The validator module for Cloudflare Workers, imported by `init({ validator: true })`. */
import * as validatorWasm from '../../wasm/web/understudy_validator.js';
import validatorModule from '../../wasm/understudy_validator_bg.wasm';
import { installValidator } from './channel.js';

validatorWasm.initSync({ module: validatorModule });
installValidator(validatorWasm);
