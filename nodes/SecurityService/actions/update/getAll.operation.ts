import { getManyOperation } from '../getManyEndpoint';

export const { option, description, execute } = getManyOperation(
	'update',
	'List the core, plugin and theme updates available for the sites',
);
