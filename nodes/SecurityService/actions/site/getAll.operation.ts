import { getManyOperation } from '../getManyEndpoint';

export const { option, description, execute } = getManyOperation(
	'site',
	'List the sites of the tenant',
);
