import { getManyOperation } from '../getManyEndpoint';

export const { option, description, execute } = getManyOperation(
	'site',
	'sites',
	'List the sites of the tenant',
);
