# fish completion for rentctl
# Generated from the command tree by `rentctl completion fish`; do not edit.
# Regenerate the checked-in copies with `npm run build && node scripts/gen-completions.mjs`.
#
# Install: copy to ~/.config/fish/completions/rentctl.fish
# or: rentctl completion fish | source

complete -c rentctl -e
# No file names unless a flag or argument takes a file.
complete -c rentctl -f

# __rentctl_child PATH WORD: print the path of the subcommand WORD of PATH.
function __rentctl_child
    switch "$argv[1]|$argv[2]"
        case '|auth'
            echo 'auth'
        case '|profile'
            echo 'profile'
        case '|catalog'
            echo 'catalog'
        case '|vehicle'
            echo 'vehicle'
        case '|image'
            echo 'image'
        case '|extra'
            echo 'extra'
        case '|undo'
            echo 'undo'
        case '|api'
            echo 'api'
        case '|sandbox'
            echo 'sandbox'
        case '|completion'
            echo 'completion'
        case '|help'
            echo 'help'
        case 'auth|login'
            echo 'auth login'
        case 'auth|status'
            echo 'auth status'
        case 'auth|logout'
            echo 'auth logout'
        case 'auth|help'
            echo 'auth help'
        case 'profile|list'
            echo 'profile list'
        case 'profile|show'
            echo 'profile show'
        case 'profile|use'
            echo 'profile use'
        case 'profile|set'
            echo 'profile set'
        case 'profile|remove'
            echo 'profile remove'
        case 'profile|help'
            echo 'profile help'
        case 'catalog|setup'
            echo 'catalog setup'
        case 'catalog|currencies'
            echo 'catalog currencies'
        case 'catalog|locales'
            echo 'catalog locales'
        case 'catalog|segments'
            echo 'catalog segments'
        case 'catalog|brands'
            echo 'catalog brands'
        case 'catalog|models'
            echo 'catalog models'
        case 'catalog|equipments'
            echo 'catalog equipments'
        case 'catalog|years'
            echo 'catalog years'
        case 'catalog|classes'
            echo 'catalog classes'
        case 'catalog|transmissions'
            echo 'catalog transmissions'
        case 'catalog|benefits'
            echo 'catalog benefits'
        case 'catalog|features'
            echo 'catalog features'
        case 'catalog|options'
            echo 'catalog options'
        case 'catalog|protection-plans'
            echo 'catalog protection-plans'
        case 'catalog|delivery'
            echo 'catalog delivery'
        case 'catalog|fuel-policies'
            echo 'catalog fuel-policies'
        case 'catalog|distance-units'
            echo 'catalog distance-units'
        case 'catalog|payment-systems'
            echo 'catalog payment-systems'
        case 'catalog|payment-types'
            echo 'catalog payment-types'
        case 'catalog|extra-options'
            echo 'catalog extra-options'
        case 'catalog|help'
            echo 'catalog help'
        case 'vehicle|list'
            echo 'vehicle list'
        case 'vehicle|get'
            echo 'vehicle get'
        case 'vehicle|create'
            echo 'vehicle create'
        case 'vehicle|wizard'
            echo 'vehicle wizard'
        case 'vehicle|edit'
            echo 'vehicle edit'
        case 'vehicle|remove'
            echo 'vehicle remove'
        case 'vehicle|activate'
            echo 'vehicle activate'
        case 'vehicle|deactivate'
            echo 'vehicle deactivate'
        case 'vehicle|export'
            echo 'vehicle export'
        case 'vehicle|import'
            echo 'vehicle import'
        case 'vehicle|help'
            echo 'vehicle help'
        case 'image|upload'
            echo 'image upload'
        case 'image|help'
            echo 'image help'
        case 'extra|options'
            echo 'extra options'
        case 'extra|list'
            echo 'extra list'
        case 'extra|get'
            echo 'extra get'
        case 'extra|create'
            echo 'extra create'
        case 'extra|update'
            echo 'extra update'
        case 'extra|switch'
            echo 'extra switch'
        case 'extra|delete'
            echo 'extra delete'
        case 'extra|help'
            echo 'extra help'
        case 'sandbox|serve'
            echo 'sandbox serve'
        case 'sandbox|reset'
            echo 'sandbox reset'
        case 'sandbox|info'
            echo 'sandbox info'
        case 'sandbox|help'
            echo 'sandbox help'
        case 'completion|__complete'
            echo 'completion __complete'
        case '*'
            return 1
    end
end

# __rentctl_takes_value PATH FLAG: FLAG takes a value under PATH.
function __rentctl_takes_value
    switch "$argv[1]"
        case 'catalog setup'
            contains -- $argv[2] '--segment'; and return 0
        case 'catalog brands'
            contains -- $argv[2] '--segment'; and return 0
        case 'catalog models'
            contains -- $argv[2] '--segment' '--brand'; and return 0
        case 'catalog equipments'
            contains -- $argv[2] '--model' '--brand'; and return 0
        case 'catalog classes'
            contains -- $argv[2] '--segment'; and return 0
        case 'catalog transmissions'
            contains -- $argv[2] '--segment'; and return 0
        case 'catalog benefits'
            contains -- $argv[2] '--segment'; and return 0
        case 'catalog features'
            contains -- $argv[2] '--segment'; and return 0
        case 'catalog options'
            contains -- $argv[2] '--segment'; and return 0
        case 'vehicle list'
            contains -- $argv[2] '--limit' '--offset' '--page'; and return 0
        case 'vehicle create'
            contains -- $argv[2] '--save' '--pickup-location' '--vehicle-class-id' '--vehicle-model-id' '--vehicle-segment-id' '--vehicle-year-of-issue-id' '--vehicle-vin' '--vehicle-odometer' '--vehicle-reg-number-country' '--vehicle-reg-number' '--vehicle-activity' '--price-per-day' '--price-per-3days' '--price-per-week' '--price-per-14days' '--vehicle-currency-id' '--vehicle-protection-plans-insurance-price' '--vehicle-protection-plans-insurance-exclude-security-deposit' '--vehicle-protection-plans-no-deposit' '--vehicle-protection-plans-third-party-insurance' '--vehicle-protection-plans-deposit-price' '--vehicle-protection-plans-deposit-pay-cash' '--vehicle-protection-plans-deposit-pay-debit-card' '--vehicle-protection-plans-deposit-pay-credit-card' '--vehicle-protection-plans-deposit-return-period-cash' '--vehicle-protection-plans-deposit-return-period-card' '--vehicle-protection-plans-cdw1-price-day' '--vehicle-protection-plans-cdw1-franchise' '--vehicle-protection-plans-cdw1-security-deposit' '--vehicle-protection-plans-cdw2-price-day' '--vehicle-protection-plans-cdw2-franchise' '--vehicle-protection-plans-cdw2-security-deposit' '--vehicle-protection-plans-tire-windshield-price-day' '--vehicle-protection-plans-theft-price-day' '--vehicle-protection-plans-interior-price-day' '--vehicle-protection-plans-roadside-price-day' '--vehicle-tuning-text' '--vehicle-delivery-address-fixed-place' '--vehicle-delivery-address-fixed-location' '--vehicle-delivery-address-fixed-price' '--vehicle-delivery-return-fixed-place' '--vehicle-delivery-return-fixed-location' '--vehicle-delivery-return-fixed-price' '--vehicle-distance-unit-id' '--vehicle-distance-included' '--vehicle-surcharge-for-excess' '--price-surcharge-over-time' '--vehicle-images' '--vehicle-minimal-renting-period' '--vehicle-minimal-age-to-rent' '--vehicle-drivers-experience' '--price-subscription-month' '--price-subscription-3month' '--price-subscription-6month' '--price-subscription-year' '--price-subscription-2years' '--price-subscription-3years' '--vehicle-description' '--vehicle-benefits-id' '--vehicle-options-id' '--vehicle-payment-types' '--vehicle-availability-calendar' '--vehicle-passenger-capacity' '--vehicle-luggage-capacity' '--vehicle-extras' '--vehicle-fuel-policy' '--vehicle-booking-lead-time' '--set' '--from-file' '--location' '--class' '--model' '--segment' '--year' '--reg' '--active' '--price' '--currency' '--image' '--description'; and return 0
        case 'vehicle wizard'
            contains -- $argv[2] '--from-file' '--save'; and return 0
        case 'vehicle edit'
            contains -- $argv[2] '--pickup-location' '--vehicle-class-id' '--vehicle-model-id' '--vehicle-segment-id' '--vehicle-year-of-issue-id' '--vehicle-vin' '--vehicle-odometer' '--vehicle-reg-number-country' '--vehicle-reg-number' '--vehicle-activity' '--price-per-day' '--price-per-3days' '--price-per-week' '--price-per-14days' '--vehicle-currency-id' '--vehicle-protection-plans-insurance-price' '--vehicle-protection-plans-insurance-exclude-security-deposit' '--vehicle-protection-plans-no-deposit' '--vehicle-protection-plans-third-party-insurance' '--vehicle-protection-plans-deposit-price' '--vehicle-protection-plans-deposit-pay-cash' '--vehicle-protection-plans-deposit-pay-debit-card' '--vehicle-protection-plans-deposit-pay-credit-card' '--vehicle-protection-plans-deposit-return-period-cash' '--vehicle-protection-plans-deposit-return-period-card' '--vehicle-protection-plans-cdw1-price-day' '--vehicle-protection-plans-cdw1-franchise' '--vehicle-protection-plans-cdw1-security-deposit' '--vehicle-protection-plans-cdw2-price-day' '--vehicle-protection-plans-cdw2-franchise' '--vehicle-protection-plans-cdw2-security-deposit' '--vehicle-protection-plans-tire-windshield-price-day' '--vehicle-protection-plans-theft-price-day' '--vehicle-protection-plans-interior-price-day' '--vehicle-protection-plans-roadside-price-day' '--vehicle-tuning-text' '--vehicle-delivery-address-fixed-place' '--vehicle-delivery-address-fixed-location' '--vehicle-delivery-address-fixed-price' '--vehicle-delivery-return-fixed-place' '--vehicle-delivery-return-fixed-location' '--vehicle-delivery-return-fixed-price' '--vehicle-distance-unit-id' '--vehicle-distance-included' '--vehicle-surcharge-for-excess' '--price-surcharge-over-time' '--vehicle-images' '--vehicle-minimal-renting-period' '--vehicle-minimal-age-to-rent' '--vehicle-drivers-experience' '--price-subscription-month' '--price-subscription-3month' '--price-subscription-6month' '--price-subscription-year' '--price-subscription-2years' '--price-subscription-3years' '--vehicle-description' '--vehicle-benefits-id' '--vehicle-options-id' '--vehicle-payment-types' '--vehicle-availability-calendar' '--vehicle-passenger-capacity' '--vehicle-luggage-capacity' '--vehicle-extras' '--vehicle-fuel-policy' '--vehicle-booking-lead-time' '--set' '--from-file' '--location' '--class' '--model' '--segment' '--year' '--reg' '--active' '--price' '--currency' '--image' '--description'; and return 0
        case 'vehicle export'
            contains -- $argv[2] '--format'; and return 0
        case 'vehicle import'
            contains -- $argv[2] '--format' '--concurrency' '--report'; and return 0
        case 'image upload'
            contains -- $argv[2] '--attach'; and return 0
        case 'extra list'
            contains -- $argv[2] '--limit' '--offset' '--page'; and return 0
        case 'extra create'
            contains -- $argv[2] '--option' '--price' '--currency' '--period' '--quantity' '--set' '--from-file'; and return 0
        case 'extra update'
            contains -- $argv[2] '--option' '--price' '--currency' '--period' '--quantity' '--set' '--from-file'; and return 0
        case 'undo'
            contains -- $argv[2] '--limit'; and return 0
        case 'api'
            contains -- $argv[2] '-X' '--method' '-f' '--field' '-F' '--file'; and return 0
        case 'sandbox serve'
            contains -- $argv[2] '--host' '--port' '--data' '--latency' '--fail-rate' '--html502-rate' '--reset-rate' '--throttle-rate' '--retry-after' '--fault-first'; and return 0
        case 'sandbox reset'
            contains -- $argv[2] '--data'; and return 0
        case 'sandbox info'
            contains -- $argv[2] '--data'; and return 0
    end
    contains -- $argv[2] '-p' '--profile' '--env' '--base-url' '--user' '--locale' '-o' '--output' '--timeout' '--fields'; and return 0
    return 1
end

# __rentctl_state: print the number of positional arguments, then the command
# path, for the tokens before the cursor (remembered for the line).
function __rentctl_state
    set -l line (commandline -opc)
    if set -q __rentctl_state_key; and test "$__rentctl_state_key" = "$line"
        printf '%s\n' $__rentctl_state_value
        return
    end
    set -l tokens $line
    set -e tokens[1]
    set -l cmdpath ''
    set -l nargs 0
    set -l expect 0
    set -l dashdash 0
    set -l child
    for t in $tokens
        if test $expect = 1
            set expect 0
        else if test $dashdash = 1
            set nargs (math $nargs + 1)
        else
            switch $t
                case '--'
                    set dashdash 1
                case '-'
                    set nargs (math $nargs + 1)
                case '--*=*'
                case '-*'
                    __rentctl_takes_value "$cmdpath" $t; and set expect 1
                case '*'
                    if test $nargs = 0; and set child (__rentctl_child "$cmdpath" $t)
                        set cmdpath $child
                    else
                        set nargs (math $nargs + 1)
                    end
            end
        end
    end
    set -g __rentctl_state_key "$line"
    set -g __rentctl_state_value $nargs $cmdpath
    printf '%s\n' $nargs $cmdpath
end

# __rentctl_using PATH…: the cursor is under one of these commands.
function __rentctl_using
    set -l s (__rentctl_state)
    contains -- "$s[2]" $argv
end

# __rentctl_needs_command PATH: the cursor is where a subcommand of PATH goes.
function __rentctl_needs_command
    set -l s (__rentctl_state)
    test "$s[2]" = "$argv[1]"; and test "$s[1]" = 0
end

# __rentctl_arg PATH INDEX [more]: the cursor is on positional argument INDEX (or later, with "more") of PATH.
function __rentctl_arg
    set -l s (__rentctl_state)
    test "$s[2]" = "$argv[1]"; or return 1
    if set -q argv[3]
        test "$s[1]" -ge "$argv[2]"
    else
        test "$s[1]" = "$argv[2]"
    end
end

# A comma-separated list: complete its last item.
function __rentctl_list
    set -l token (commandline -ct)
    set -l token (string replace -r -- '^--?[^=]*=' '' $token)
    set -l head (string replace -r -- '[^,]*$' '' $token)
    for w in $argv
        contains -- $w (string split , -- $head); or printf '%s%s\n' $head $w
    end
end

# Values known only at TAB time (profile names, cached catalogs), asked of
# `rentctl completion __complete ARGS`: one "value<TAB>description" per line.
function __rentctl_dynamic
    command rentctl completion __complete $argv 2>/dev/null
end

# Subcommands
complete -c rentctl -n '__rentctl_needs_command \'\'' -a 'auth' -d 'Log in with an API key, check it, log out'
complete -c rentctl -n '__rentctl_needs_command \'\'' -a 'profile' -d 'Manage saved profiles (environment, address, owner, key)'
complete -c rentctl -n '__rentctl_needs_command \'\'' -a 'catalog' -d 'Read the public reference catalogs (no API key needed)'
complete -c rentctl -n '__rentctl_needs_command \'\'' -a 'vehicle' -d 'List, show, create, edit, remove and (de)activate vehicles'
complete -c rentctl -n '__rentctl_needs_command \'\'' -a 'image' -d 'Upload vehicle images'
complete -c rentctl -n '__rentctl_needs_command \'\'' -a 'extra' -d 'Manage the account\'s paid extras (child seats, GPS, …)'
complete -c rentctl -n '__rentctl_needs_command \'\'' -a 'undo' -d 'List recent edits and removals, or restore one (a removed vehicle is re-created with a new id)'
complete -c rentctl -n '__rentctl_needs_command \'\'' -a 'api' -d 'Call any v302 operation raw, with the same auth, encoding, errors and exit codes'
complete -c rentctl -n '__rentctl_needs_command \'\'' -a 'sandbox' -d 'The built-in sandbox: a local, stateful stand-in for the marketplace\'s v302 API (not the marketplace)'
complete -c rentctl -n '__rentctl_needs_command \'\'' -a 'completion' -d 'Print the shell completion script for bash, zsh or fish'
complete -c rentctl -n '__rentctl_needs_command \'\'' -a 'help' -d 'display help for command'
complete -c rentctl -n '__rentctl_needs_command \'auth\'' -a 'login' -d 'Save a profile with its environment, base address, owner id and API key (the key is checked first)'
complete -c rentctl -n '__rentctl_needs_command \'auth\'' -a 'status' -d 'Show the profile, environment, owner and masked key in force, and check the key'
complete -c rentctl -n '__rentctl_needs_command \'auth\'' -a 'logout' -d 'Remove the key of the current (or --profile) profile'
complete -c rentctl -n '__rentctl_needs_command \'auth\'' -a 'help' -d 'display help for command'
complete -c rentctl -n '__rentctl_needs_command \'profile\'' -a 'list' -d 'List profiles (keys masked)'
complete -c rentctl -n '__rentctl_needs_command \'profile\'' -a 'show' -d 'Show one profile (key masked)'
complete -c rentctl -n '__rentctl_needs_command \'profile\'' -a 'use' -d 'Make a profile current'
complete -c rentctl -n '__rentctl_needs_command \'profile\'' -a 'set' -d 'Set a value in the current (or --profile) profile'
complete -c rentctl -n '__rentctl_needs_command \'profile\'' -a 'remove' -d 'Remove a profile and its key (asks first; --yes in scripts)'
complete -c rentctl -n '__rentctl_needs_command \'profile\'' -a 'help' -d 'display help for command'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'setup' -d 'Setup configuration (registration countries and other dictionaries)'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'currencies' -d 'Currencies (id, code, symbol)'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'locales' -d 'Locales (id, name, code)'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'segments' -d 'Vehicle segments (1 = cars)'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'brands' -d 'Vehicle brands of a segment'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'models' -d 'Models of a brand'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'equipments' -d 'Configurations (equipments) of a model'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'years' -d 'Years of issue'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'classes' -d 'Vehicle classes or types of a segment'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'transmissions' -d 'Transmissions of a segment'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'benefits' -d 'Benefits'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'features' -d 'Additional features'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'options' -d 'Racing and tuning options'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'protection-plans' -d 'Protection plan settings'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'delivery' -d 'Delivery and return places'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'fuel-policies' -d 'Fuel policies'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'distance-units' -d 'Distance units'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'payment-systems' -d 'Payment systems'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'payment-types' -d 'Payment types'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'extra-options' -d 'Extra option types'
complete -c rentctl -n '__rentctl_needs_command \'catalog\'' -a 'help' -d 'display help for command'
complete -c rentctl -n '__rentctl_needs_command \'vehicle\'' -a 'list' -d 'List the owner\'s vehicles, a page at a time or --all'
complete -c rentctl -n '__rentctl_needs_command \'vehicle\'' -a 'get' -d 'Show one vehicle'
complete -c rentctl -n '__rentctl_needs_command \'vehicle\'' -a 'create' -d 'Create a vehicle from flags, --set and/or --from-file; every rule is checked before sending'
complete -c rentctl -n '__rentctl_needs_command \'vehicle\'' -a 'wizard' -d 'Create a vehicle with a guided, interactive wizard (needs a terminal)'
complete -c rentctl -n '__rentctl_needs_command \'vehicle\'' -a 'edit' -d 'Change fields of a vehicle safely: reads it, applies the change and sends the full record'
complete -c rentctl -n '__rentctl_needs_command \'vehicle\'' -a 'remove' -d 'Remove vehicles (asks on a terminal; --yes in scripts; undo with `rentctl undo`)'
complete -c rentctl -n '__rentctl_needs_command \'vehicle\'' -a 'activate' -d 'Make vehicles available for rent (vehicle_activity = 1), through the safe edit'
complete -c rentctl -n '__rentctl_needs_command \'vehicle\'' -a 'deactivate' -d 'Take vehicles off rent (vehicle_activity = 0), through the safe edit'
complete -c rentctl -n '__rentctl_needs_command \'vehicle\'' -a 'export' -d 'Write every vehicle to a fleet file (input fields; streamed; temp file then rename)'
complete -c rentctl -n '__rentctl_needs_command \'vehicle\'' -a 'import' -d 'Create the vehicles of a fleet file: checked first, concurrent, resumable after any interruption'
complete -c rentctl -n '__rentctl_needs_command \'vehicle\'' -a 'help' -d 'display help for command'
complete -c rentctl -n '__rentctl_needs_command \'image\'' -a 'upload' -d 'Upload images in batches of at most 10 per request; prints the new image ids'
complete -c rentctl -n '__rentctl_needs_command \'image\'' -a 'help' -d 'display help for command'
complete -c rentctl -n '__rentctl_needs_command \'extra\'' -a 'options' -d 'List the extra option types (public catalog)'
complete -c rentctl -n '__rentctl_needs_command \'extra\'' -a 'list' -d 'List the account\'s extras'
complete -c rentctl -n '__rentctl_needs_command \'extra\'' -a 'get' -d 'Show one extra'
complete -c rentctl -n '__rentctl_needs_command \'extra\'' -a 'create' -d 'Create an extra'
complete -c rentctl -n '__rentctl_needs_command \'extra\'' -a 'update' -d 'Change an extra safely: reads it and sends every member (the API replaces the whole extra)'
complete -c rentctl -n '__rentctl_needs_command \'extra\'' -a 'switch' -d 'Toggle an extra on or off; prints the resulting state'
complete -c rentctl -n '__rentctl_needs_command \'extra\'' -a 'delete' -d 'Delete an extra (asks on a terminal; --yes in scripts; undo with `rentctl undo`)'
complete -c rentctl -n '__rentctl_needs_command \'extra\'' -a 'help' -d 'display help for command'
complete -c rentctl -n '__rentctl_needs_command \'sandbox\'' -a 'serve' -d 'Run the sandbox as an HTTP server until Ctrl-C'
complete -c rentctl -n '__rentctl_needs_command \'sandbox\'' -a 'reset' -d 'Reset the sandbox data file to the seed data'
complete -c rentctl -n '__rentctl_needs_command \'sandbox\'' -a 'info' -d 'Show the sandbox\'s data file, running address and demo owners with their keys'
complete -c rentctl -n '__rentctl_needs_command \'sandbox\'' -a 'help' -d 'display help for command'

# Flags of each command
complete -c rentctl -n '__rentctl_using \'\'' -s V -l version -d 'output the version number'
complete -c rentctl -n '__rentctl_using \'\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'auth\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'auth login\'' -l with-token -d 'read the API key from stdin instead of a hidden prompt'
complete -c rentctl -n '__rentctl_using \'auth login\'' -l no-verify -d 'save without checking the key against the API'
complete -c rentctl -n '__rentctl_using \'auth login\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'auth status\'' -l no-verify -d 'do not call the API'
complete -c rentctl -n '__rentctl_using \'auth status\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'auth logout\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'profile\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'profile list\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'profile show\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'profile use\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'profile set\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'profile remove\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog setup\'' -l segment -r -f -a '(__rentctl_dynamic catalog segments)' -d 'segment id or name (default 1 = cars)'
complete -c rentctl -n '__rentctl_using \'catalog setup\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog currencies\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog locales\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog segments\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog brands\'' -l segment -r -f -a '(__rentctl_dynamic catalog segments)' -d 'segment id or name (default 1 = cars)'
complete -c rentctl -n '__rentctl_using \'catalog brands\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog models\'' -l segment -r -f -a '(__rentctl_dynamic catalog segments)' -d 'segment id or name (default 1 = cars)'
complete -c rentctl -n '__rentctl_using \'catalog models\'' -l brand -r -f -a '(__rentctl_dynamic catalog brands)' -d 'brand id or name (required)'
complete -c rentctl -n '__rentctl_using \'catalog models\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog equipments\'' -l model -r -f -d 'model id or name (required; a name needs --brand)'
complete -c rentctl -n '__rentctl_using \'catalog equipments\'' -l brand -r -f -a '(__rentctl_dynamic catalog brands)' -d 'brand, to resolve a model name'
complete -c rentctl -n '__rentctl_using \'catalog equipments\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog years\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog classes\'' -l segment -r -f -a '(__rentctl_dynamic catalog segments)' -d 'segment id or name (required by the API; rentctl sends 1 = cars when omitted)'
complete -c rentctl -n '__rentctl_using \'catalog classes\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog transmissions\'' -l segment -r -f -a '(__rentctl_dynamic catalog segments)' -d 'segment id or name (required by the API; rentctl sends 1 = cars when omitted)'
complete -c rentctl -n '__rentctl_using \'catalog transmissions\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog benefits\'' -l segment -r -f -a '(__rentctl_dynamic catalog segments)' -d 'segment id or name (default 1 = cars)'
complete -c rentctl -n '__rentctl_using \'catalog benefits\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog features\'' -l segment -r -f -a '(__rentctl_dynamic catalog segments)' -d 'segment id or name (default 1 = cars)'
complete -c rentctl -n '__rentctl_using \'catalog features\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog options\'' -l segment -r -f -a '(__rentctl_dynamic catalog segments)' -d 'segment id or name (default 1 = cars)'
complete -c rentctl -n '__rentctl_using \'catalog options\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog protection-plans\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog delivery\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog fuel-policies\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog distance-units\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog payment-systems\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog payment-types\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'catalog extra-options\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'vehicle\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'vehicle list\'' -l limit -r -f -d 'vehicles per page (default 15; 100 with --all)'
complete -c rentctl -n '__rentctl_using \'vehicle list\'' -l offset -r -f -d 'vehicles to skip'
complete -c rentctl -n '__rentctl_using \'vehicle list\'' -l page -r -f -d 'page number (1-based; uses --limit)'
complete -c rentctl -n '__rentctl_using \'vehicle list\'' -l all -d 'walk every page (ndjson and csv stream as pages arrive)'
complete -c rentctl -n '__rentctl_using \'vehicle list\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'vehicle get\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -s i -l interactive -d 'guided wizard (same as `rentctl vehicle wizard`)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l save -r -F -d 'with -i: also save the answers as a JSON file for --from-file'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l pickup-location -r -f -d 'Vehicle location as free text [required on create] (alias --location)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-class-id -r -f -a '(__rentctl_dynamic catalog classes --ids)' -d 'Vehicle class id [required on create] (alias --class)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-model-id -r -f -a '(__rentctl_dynamic catalog equipments --ids)' -d 'Vehicle configuration id [required on create] (alias --model)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-segment-id -r -f -a '(__rentctl_dynamic catalog segments --ids)' -d 'Segment id [required on create] (alias --segment)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-year-of-issue-id -r -f -a '(__rentctl_dynamic catalog years --ids)' -d 'Year-of-issue id [required on create] (alias --year)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-vin -r -f -d 'VIN'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-odometer -r -f -d 'Recorded odometer reading'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-reg-number-country -r -f -a '(__rentctl_dynamic catalog setup --ids)' -d 'Registration country id from the setup configuration'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-reg-number -r -f -d 'Registration number [required on create] (alias --reg)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-activity -r -f -a '0 1' -d '1 = active (available for rent), 0 = inactive [required on create] (alias --active)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l price-per-day -r -f -d 'Daily price [required on create] (alias --price)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l price-per-3days -r -f -d 'Daily price for rentals of 3-6 days [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l price-per-week -r -f -d 'Daily price for rentals of 7-13 days [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l price-per-14days -r -f -d 'Daily price for rentals of 14 days or longer [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-currency-id -r -f -a '(__rentctl_dynamic catalog currencies --ids)' -d 'Pricing currency id (alias --currency)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-insurance-price -r -f -d 'Insurance price'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-insurance-exclude-security-deposit -r -f -a '0 1' -d 'Include the deposit in full insurance coverage'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-no-deposit -r -f -a '0 1' -d '1 = a security deposit is present, 0 = no deposit [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-third-party-insurance -r -f -a '0 1' -d '1 = third-party insurance included, 0 = not [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-deposit-price -r -f -d 'Security deposit amount [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-deposit-pay-cash -r -f -a '0 1' -d 'Cash accepted for the deposit'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-deposit-pay-debit-card -r -f -a '0 1' -d 'Debit card accepted for the deposit'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-deposit-pay-credit-card -r -f -a '0 1' -d 'Credit card accepted for the deposit'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-deposit-return-period-cash -r -f -a '(__rentctl_dynamic catalog protection-plans --ids)' -d 'Id of one deposit return option (cash)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-deposit-return-period-card -r -f -a '(__rentctl_dynamic catalog protection-plans --ids)' -d 'Id of one deposit return option (card)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-cdw1-price-day -r -f -d 'Protection plan CDW1 daily price'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-cdw1-franchise -r -f -d 'CDW1 franchise'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-cdw1-security-deposit -r -f -d 'CDW1 security deposit'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-cdw2-price-day -r -f -d 'CDW2 daily price'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-cdw2-franchise -r -f -d 'CDW2 franchise'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-cdw2-security-deposit -r -f -d 'CDW2 security deposit'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-tire-windshield-price-day -r -f -d 'Tire and windshield plan daily price'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-theft-price-day -r -f -d 'Theft plan daily price'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-interior-price-day -r -f -d 'Interior plan daily price'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-protection-plans-roadside-price-day -r -f -d 'Roadside plan daily price'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-tuning-text -r -f -d 'Tuning description, at most 5000 characters'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-delivery-address-fixed-place -r -f -a '(__rentctl_dynamic catalog delivery --ids)' -d 'Delivery place ids (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-delivery-address-fixed-location -r -f -d 'Delivery locations (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-delivery-address-fixed-price -r -f -d 'Delivery price per location (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-delivery-return-fixed-place -r -f -a '(__rentctl_dynamic catalog delivery --ids)' -d 'Alternative return place ids (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-delivery-return-fixed-location -r -f -d 'Alternative return locations (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-delivery-return-fixed-price -r -f -d 'Return price per location (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-distance-unit-id -r -f -a '(__rentctl_dynamic catalog distance-units --ids)' -d 'Distance unit id; default 0'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-distance-included -r -f -d 'Distance included in the rental [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-surcharge-for-excess -r -f -d 'Daily excess-distance surcharge per unit of distance [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l price-surcharge-over-time -r -f -d 'Monthly vehicle price, as described [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-images -r -f -d 'Vehicle image ids (from image upload) (repeat for more) (alias --image)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-minimal-renting-period -r -f -d 'Minimum rental period in days (>= 1) [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-minimal-age-to-rent -r -f -d 'Minimum renter age in years [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-drivers-experience -r -f -d 'Minimum driving experience in years [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l price-subscription-month -r -f -d 'Monthly price for rentals of 1-2 months'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l price-subscription-3month -r -f -d 'Monthly price for rentals of 3-5 months'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l price-subscription-6month -r -f -d 'Monthly price for rentals of 6-12 months'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l price-subscription-year -r -f -d 'Annual price for a 1-year rental'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l price-subscription-2years -r -f -d 'Annual price for a 2-year rental'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l price-subscription-3years -r -f -d 'Annual price for a 3-year rental'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-description -r -f -d 'Description, at most 5000 characters (alias --description)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-benefits-id -r -f -a '(__rentctl_dynamic catalog benefits --ids)' -d 'Benefit ids (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-options-id -r -f -a '(__rentctl_dynamic catalog features --ids)' -d 'Additional-feature ids (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-payment-types -r -f -a '(__rentctl_dynamic catalog payment-types --ids)' -d 'Accepted payment methods (payment type ids) (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-availability-calendar -r -f -d 'Comma-separated unavailable dates in d.m.Y format (e.g. 24.12.2026,25.12.2026)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-passenger-capacity -r -f -d 'Passenger capacity [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-luggage-capacity -r -f -d 'Luggage capacity [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-extras -r -f -d 'Extras assigned to the vehicle (extra ids) (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-fuel-policy -r -f -a '(__rentctl_dynamic catalog fuel-policies --ids)' -d 'Fuel policy id [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l vehicle-booking-lead-time -r -f -d 'Minimum booking lead time, 1 to 3 days'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l set -r -f -a 'user_id= locale_id= pickup_location= vehicle_class_id= vehicle_model_id= vehicle_segment_id= vehicle_year_of_issue_id= vehicle_vin= vehicle_odometer= vehicle_reg_number_country= vehicle_reg_number= vehicle_activity= price_per_day= price_per_3days= price_per_week= price_per_14days= vehicle_currency_id= vehicle_protection_plans_insurance_price= vehicle_protection_plans_insurance_exclude_security_deposit= vehicle_protection_plans_no_deposit= vehicle_protection_plans_third_party_insurance= vehicle_protection_plans_deposit_price= vehicle_protection_plans_deposit_pay_cash= vehicle_protection_plans_deposit_pay_debit_card= vehicle_protection_plans_deposit_pay_credit_card= vehicle_protection_plans_deposit_return_period_cash= vehicle_protection_plans_deposit_return_period_card= vehicle_protection_plans_cdw1_price_day= vehicle_protection_plans_cdw1_franchise= vehicle_protection_plans_cdw1_security_deposit= vehicle_protection_plans_cdw2_price_day= vehicle_protection_plans_cdw2_franchise= vehicle_protection_plans_cdw2_security_deposit= vehicle_protection_plans_tire_windshield_price_day= vehicle_protection_plans_theft_price_day= vehicle_protection_plans_interior_price_day= vehicle_protection_plans_roadside_price_day= vehicle_tuning_text= vehicle_delivery_address_fixed_place= vehicle_delivery_address_fixed_location= vehicle_delivery_address_fixed_price= vehicle_delivery_return_fixed_place= vehicle_delivery_return_fixed_location= vehicle_delivery_return_fixed_price= vehicle_distance_unit_id= vehicle_distance_included= vehicle_surcharge_for_excess= price_surcharge_over_time= vehicle_images= vehicle_minimal_renting_period= vehicle_minimal_age_to_rent= vehicle_drivers_experience= price_subscription_month= price_subscription_3month= price_subscription_6month= price_subscription_year= price_subscription_2years= price_subscription_3years= vehicle_description= vehicle_benefits_id= vehicle_options_id= vehicle_payment_types= vehicle_availability_calendar= vehicle_passenger_capacity= vehicle_luggage_capacity= vehicle_extras= vehicle_fuel_policy= vehicle_booking_lead_time=' -d 'set a field by its wire name (repeat; arrays append; empty value clears)'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -l from-file -r -F -d 'read fields (wire names) from a JSON or YAML file, or - for stdin'
complete -c rentctl -n '__rentctl_using \'vehicle create\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'vehicle wizard\'' -l from-file -r -F -d 'pre-fill the answers from a JSON or YAML file'
complete -c rentctl -n '__rentctl_using \'vehicle wizard\'' -l save -r -F -d 'also save the answers as a JSON file for --from-file'
complete -c rentctl -n '__rentctl_using \'vehicle wizard\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l replace -d 'send exactly the fields given (the API clears the rest)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l pickup-location -r -f -d 'Vehicle location as free text [required on create] (alias --location)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-class-id -r -f -a '(__rentctl_dynamic catalog classes --ids)' -d 'Vehicle class id [required on create] (alias --class)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-model-id -r -f -a '(__rentctl_dynamic catalog equipments --ids)' -d 'Vehicle configuration id [required on create] (alias --model)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-segment-id -r -f -a '(__rentctl_dynamic catalog segments --ids)' -d 'Segment id [required on create] (alias --segment)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-year-of-issue-id -r -f -a '(__rentctl_dynamic catalog years --ids)' -d 'Year-of-issue id [required on create] (alias --year)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-vin -r -f -d 'VIN'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-odometer -r -f -d 'Recorded odometer reading'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-reg-number-country -r -f -a '(__rentctl_dynamic catalog setup --ids)' -d 'Registration country id from the setup configuration'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-reg-number -r -f -d 'Registration number [required on create] (alias --reg)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-activity -r -f -a '0 1' -d '1 = active (available for rent), 0 = inactive [required on create] (alias --active)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l price-per-day -r -f -d 'Daily price [required on create] (alias --price)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l price-per-3days -r -f -d 'Daily price for rentals of 3-6 days [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l price-per-week -r -f -d 'Daily price for rentals of 7-13 days [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l price-per-14days -r -f -d 'Daily price for rentals of 14 days or longer [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-currency-id -r -f -a '(__rentctl_dynamic catalog currencies --ids)' -d 'Pricing currency id (alias --currency)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-insurance-price -r -f -d 'Insurance price'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-insurance-exclude-security-deposit -r -f -a '0 1' -d 'Include the deposit in full insurance coverage'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-no-deposit -r -f -a '0 1' -d '1 = a security deposit is present, 0 = no deposit [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-third-party-insurance -r -f -a '0 1' -d '1 = third-party insurance included, 0 = not [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-deposit-price -r -f -d 'Security deposit amount [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-deposit-pay-cash -r -f -a '0 1' -d 'Cash accepted for the deposit'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-deposit-pay-debit-card -r -f -a '0 1' -d 'Debit card accepted for the deposit'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-deposit-pay-credit-card -r -f -a '0 1' -d 'Credit card accepted for the deposit'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-deposit-return-period-cash -r -f -a '(__rentctl_dynamic catalog protection-plans --ids)' -d 'Id of one deposit return option (cash)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-deposit-return-period-card -r -f -a '(__rentctl_dynamic catalog protection-plans --ids)' -d 'Id of one deposit return option (card)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-cdw1-price-day -r -f -d 'Protection plan CDW1 daily price'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-cdw1-franchise -r -f -d 'CDW1 franchise'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-cdw1-security-deposit -r -f -d 'CDW1 security deposit'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-cdw2-price-day -r -f -d 'CDW2 daily price'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-cdw2-franchise -r -f -d 'CDW2 franchise'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-cdw2-security-deposit -r -f -d 'CDW2 security deposit'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-tire-windshield-price-day -r -f -d 'Tire and windshield plan daily price'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-theft-price-day -r -f -d 'Theft plan daily price'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-interior-price-day -r -f -d 'Interior plan daily price'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-protection-plans-roadside-price-day -r -f -d 'Roadside plan daily price'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-tuning-text -r -f -d 'Tuning description, at most 5000 characters'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-delivery-address-fixed-place -r -f -a '(__rentctl_dynamic catalog delivery --ids)' -d 'Delivery place ids (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-delivery-address-fixed-location -r -f -d 'Delivery locations (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-delivery-address-fixed-price -r -f -d 'Delivery price per location (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-delivery-return-fixed-place -r -f -a '(__rentctl_dynamic catalog delivery --ids)' -d 'Alternative return place ids (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-delivery-return-fixed-location -r -f -d 'Alternative return locations (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-delivery-return-fixed-price -r -f -d 'Return price per location (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-distance-unit-id -r -f -a '(__rentctl_dynamic catalog distance-units --ids)' -d 'Distance unit id; default 0'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-distance-included -r -f -d 'Distance included in the rental [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-surcharge-for-excess -r -f -d 'Daily excess-distance surcharge per unit of distance [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l price-surcharge-over-time -r -f -d 'Monthly vehicle price, as described [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-images -r -f -d 'Vehicle image ids (from image upload) (repeat for more) (alias --image)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-minimal-renting-period -r -f -d 'Minimum rental period in days (>= 1) [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-minimal-age-to-rent -r -f -d 'Minimum renter age in years [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-drivers-experience -r -f -d 'Minimum driving experience in years [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l price-subscription-month -r -f -d 'Monthly price for rentals of 1-2 months'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l price-subscription-3month -r -f -d 'Monthly price for rentals of 3-5 months'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l price-subscription-6month -r -f -d 'Monthly price for rentals of 6-12 months'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l price-subscription-year -r -f -d 'Annual price for a 1-year rental'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l price-subscription-2years -r -f -d 'Annual price for a 2-year rental'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l price-subscription-3years -r -f -d 'Annual price for a 3-year rental'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-description -r -f -d 'Description, at most 5000 characters (alias --description)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-benefits-id -r -f -a '(__rentctl_dynamic catalog benefits --ids)' -d 'Benefit ids (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-options-id -r -f -a '(__rentctl_dynamic catalog features --ids)' -d 'Additional-feature ids (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-payment-types -r -f -a '(__rentctl_dynamic catalog payment-types --ids)' -d 'Accepted payment methods (payment type ids) (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-availability-calendar -r -f -d 'Comma-separated unavailable dates in d.m.Y format (e.g. 24.12.2026,25.12.2026)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-passenger-capacity -r -f -d 'Passenger capacity [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-luggage-capacity -r -f -d 'Luggage capacity [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-extras -r -f -d 'Extras assigned to the vehicle (extra ids) (repeat for more)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-fuel-policy -r -f -a '(__rentctl_dynamic catalog fuel-policies --ids)' -d 'Fuel policy id [required on create]'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l vehicle-booking-lead-time -r -f -d 'Minimum booking lead time, 1 to 3 days'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l set -r -f -a 'user_id= locale_id= pickup_location= vehicle_class_id= vehicle_model_id= vehicle_segment_id= vehicle_year_of_issue_id= vehicle_vin= vehicle_odometer= vehicle_reg_number_country= vehicle_reg_number= vehicle_activity= price_per_day= price_per_3days= price_per_week= price_per_14days= vehicle_currency_id= vehicle_protection_plans_insurance_price= vehicle_protection_plans_insurance_exclude_security_deposit= vehicle_protection_plans_no_deposit= vehicle_protection_plans_third_party_insurance= vehicle_protection_plans_deposit_price= vehicle_protection_plans_deposit_pay_cash= vehicle_protection_plans_deposit_pay_debit_card= vehicle_protection_plans_deposit_pay_credit_card= vehicle_protection_plans_deposit_return_period_cash= vehicle_protection_plans_deposit_return_period_card= vehicle_protection_plans_cdw1_price_day= vehicle_protection_plans_cdw1_franchise= vehicle_protection_plans_cdw1_security_deposit= vehicle_protection_plans_cdw2_price_day= vehicle_protection_plans_cdw2_franchise= vehicle_protection_plans_cdw2_security_deposit= vehicle_protection_plans_tire_windshield_price_day= vehicle_protection_plans_theft_price_day= vehicle_protection_plans_interior_price_day= vehicle_protection_plans_roadside_price_day= vehicle_tuning_text= vehicle_delivery_address_fixed_place= vehicle_delivery_address_fixed_location= vehicle_delivery_address_fixed_price= vehicle_delivery_return_fixed_place= vehicle_delivery_return_fixed_location= vehicle_delivery_return_fixed_price= vehicle_distance_unit_id= vehicle_distance_included= vehicle_surcharge_for_excess= price_surcharge_over_time= vehicle_images= vehicle_minimal_renting_period= vehicle_minimal_age_to_rent= vehicle_drivers_experience= price_subscription_month= price_subscription_3month= price_subscription_6month= price_subscription_year= price_subscription_2years= price_subscription_3years= vehicle_description= vehicle_benefits_id= vehicle_options_id= vehicle_payment_types= vehicle_availability_calendar= vehicle_passenger_capacity= vehicle_luggage_capacity= vehicle_extras= vehicle_fuel_policy= vehicle_booking_lead_time=' -d 'set a field by its wire name (repeat; arrays append; empty value clears)'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -l from-file -r -F -d 'read fields (wire names) from a JSON or YAML file, or - for stdin'
complete -c rentctl -n '__rentctl_using \'vehicle edit\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'vehicle remove\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'vehicle activate\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'vehicle deactivate\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'vehicle export\'' -l format -r -f -d 'json, ndjson, yaml or csv (default: by extension; ndjson on stdout)'
complete -c rentctl -n '__rentctl_using \'vehicle export\'' -l with-ids -d 'also write vehicle_id and the account-bound vehicle_images / vehicle_extras'
complete -c rentctl -n '__rentctl_using \'vehicle export\'' -l names -d 'write catalog names instead of ids where a name exists (portable between environments)'
complete -c rentctl -n '__rentctl_using \'vehicle export\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'vehicle import\'' -l format -r -f -d 'json, ndjson, yaml or csv (default: by extension)'
complete -c rentctl -n '__rentctl_using \'vehicle import\'' -l concurrency -r -f -d 'creates in flight at once, 1-16 (default 4)'
complete -c rentctl -n '__rentctl_using \'vehicle import\'' -l skip-invalid -d 'import the valid rows and report the others (exit 7)'
complete -c rentctl -n '__rentctl_using \'vehicle import\'' -l restart -d 'ignore the journal of an interrupted run of the same file'
complete -c rentctl -n '__rentctl_using \'vehicle import\'' -l report -r -F -d 'write per-row results to FILE (format by extension)'
complete -c rentctl -n '__rentctl_using \'vehicle import\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'image\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'image upload\'' -l attach -r -f -d 'add the new images to this vehicle\'s vehicle_images (safe edit)'
complete -c rentctl -n '__rentctl_using \'image upload\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'extra\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'extra options\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'extra list\'' -l limit -r -f -d 'extras per page (default 15; 100 with --all)'
complete -c rentctl -n '__rentctl_using \'extra list\'' -l offset -r -f -d 'extras to skip'
complete -c rentctl -n '__rentctl_using \'extra list\'' -l page -r -f -d 'page number (1-based)'
complete -c rentctl -n '__rentctl_using \'extra list\'' -l all -d 'walk every page'
complete -c rentctl -n '__rentctl_using \'extra list\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'extra get\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'extra create\'' -l option -r -f -a '(__rentctl_dynamic catalog extra-options)' -d 'Extra option type id (from extra options) (wire name option_id)'
complete -c rentctl -n '__rentctl_using \'extra create\'' -l price -r -f -d 'Price (wire name price)'
complete -c rentctl -n '__rentctl_using \'extra create\'' -l currency -r -f -a '(__rentctl_dynamic catalog currencies)' -d 'Currency id (wire name currency_id)'
complete -c rentctl -n '__rentctl_using \'extra create\'' -l period -r -f -d 'Charging period: 1 = per day, 2 = per rental (wire name period)'
complete -c rentctl -n '__rentctl_using \'extra create\'' -l quantity -r -f -d 'Quantity available (wire name quantity)'
complete -c rentctl -n '__rentctl_using \'extra create\'' -l set -r -f -a 'locale_id= option_id= price= currency_id= period= quantity=' -d 'send a member by its exact wire name (repeat)'
complete -c rentctl -n '__rentctl_using \'extra create\'' -l from-file -r -F -d 'read members (wire names) from a JSON or YAML file, or - for stdin'
complete -c rentctl -n '__rentctl_using \'extra create\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'extra update\'' -l replace -d 'send exactly the members given'
complete -c rentctl -n '__rentctl_using \'extra update\'' -l option -r -f -a '(__rentctl_dynamic catalog extra-options)' -d 'Extra option type id (from extra options) (wire name option_id)'
complete -c rentctl -n '__rentctl_using \'extra update\'' -l price -r -f -d 'Price (wire name price)'
complete -c rentctl -n '__rentctl_using \'extra update\'' -l currency -r -f -a '(__rentctl_dynamic catalog currencies)' -d 'Currency id (wire name currency_id)'
complete -c rentctl -n '__rentctl_using \'extra update\'' -l period -r -f -d 'Charging period: 1 = per day, 2 = per rental (wire name period)'
complete -c rentctl -n '__rentctl_using \'extra update\'' -l quantity -r -f -d 'Quantity available (wire name quantity)'
complete -c rentctl -n '__rentctl_using \'extra update\'' -l set -r -f -a 'locale_id= option_id= price= currency_id= period= quantity=' -d 'send a member by its exact wire name (repeat)'
complete -c rentctl -n '__rentctl_using \'extra update\'' -l from-file -r -F -d 'read members (wire names) from a JSON or YAML file, or - for stdin'
complete -c rentctl -n '__rentctl_using \'extra update\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'extra switch\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'extra delete\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'undo\'' -l limit -r -f -d 'entries to list'
complete -c rentctl -n '__rentctl_using \'undo\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'api\'' -s X -l method -r -f -d 'HTTP method (default GET, or POST when -F is given)'
complete -c rentctl -n '__rentctl_using \'api\'' -s f -l field -r -f -d 'add a field: query for GET, form body for POST (repeat; a repeated key is an array)'
complete -c rentctl -n '__rentctl_using \'api\'' -s F -l file -r -F -d 'attach a file as a multipart part (repeat)'
complete -c rentctl -n '__rentctl_using \'api\'' -l list -d 'list the operations of the contract'
complete -c rentctl -n '__rentctl_using \'api\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'sandbox\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -l host -r -f -d 'address to listen on'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -l port -r -f -d 'port (0 = any free port)'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -l data -r -F -d 'data file (default: the sandbox file in the user data directory)'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -l memory -d 'keep state in memory only'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -l latency -r -f -d 'delay every answer by MS milliseconds'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -l fail-rate -r -f -d 'answer this share of requests (0-1) with a 5xx JSON error'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -l html502-rate -r -f -d 'answer this share with a 502 HTML page'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -l reset-rate -r -f -d 'drop this share of connections without an answer'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -l throttle-rate -r -f -d 'answer this share with 429 and Retry-After'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -l retry-after -r -f -d 'Retry-After seconds for 429'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -l fault-first -r -f -d 'apply the fault switches to the first N requests only'
complete -c rentctl -n '__rentctl_using \'sandbox serve\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'sandbox reset\'' -l data -r -F -d 'data file (default: the sandbox file in the user data directory)'
complete -c rentctl -n '__rentctl_using \'sandbox reset\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'sandbox info\'' -l data -r -F -d 'data file (default: the sandbox file in the user data directory)'
complete -c rentctl -n '__rentctl_using \'sandbox info\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'completion\'' -s h -l help -d 'display help for command'
complete -c rentctl -n '__rentctl_using \'completion __complete\'' -l ids -d 'catalog ids instead of names'
complete -c rentctl -n '__rentctl_using \'completion __complete\'' -s h -l help -d 'display help for command'

# Global flags (every command accepts them)
complete -c rentctl -s p -l profile -r -f -a '(__rentctl_dynamic profiles)' -d 'profile to use (env RENTCTL_PROFILE)'
complete -c rentctl -l env -r -f -a 'production test sandbox' -d 'environment (env RENTCTL_ENV)'
complete -c rentctl -l base-url -r -f -d 'base address, overriding the profile\'s (env RENTCTL_BASE_URL)'
complete -c rentctl -l user -r -f -d 'owner id (env RENTCTL_USER_ID)'
complete -c rentctl -l locale -r -f -a '(__rentctl_dynamic catalog locales)' -d 'response language, id or name (env RENTCTL_LOCALE; default 40 = English)'
complete -c rentctl -s o -l output -r -f -a 'table json ndjson csv yaml' -d 'output format (env RENTCTL_OUTPUT; default table)'
complete -c rentctl -l json -d 'same as --output json'
complete -c rentctl -l timeout -r -f -d 'bound on each HTTP attempt (env RENTCTL_TIMEOUT; default 30)'
complete -c rentctl -l no-color -d 'no colour (also NO_COLOR)'
complete -c rentctl -s q -l quiet -d 'print only identifiers of affected resources, one per line'
complete -c rentctl -s v -l verbose -d 'HTTP trace on stderr (the key is always redacted)'
complete -c rentctl -s y -l yes -d 'do not ask for confirmation'
complete -c rentctl -l dry-run -d 'show the request(s) a mutating command would send; send nothing'
complete -c rentctl -n 'not __rentctl_using \'vehicle\' \'vehicle list\' \'vehicle get\' \'vehicle create\' \'vehicle wizard\' \'vehicle edit\' \'vehicle remove\' \'vehicle activate\' \'vehicle deactivate\' \'vehicle export\' \'vehicle import\' \'vehicle help\' \'extra\' \'extra options\' \'extra list\' \'extra get\' \'extra create\' \'extra update\' \'extra switch\' \'extra delete\' \'extra help\'' -l fields -r -f -d 'comma-separated columns / keys to show'
complete -c rentctl -n '__rentctl_using \'vehicle\' \'vehicle list\' \'vehicle get\' \'vehicle create\' \'vehicle wizard\' \'vehicle edit\' \'vehicle remove\' \'vehicle activate\' \'vehicle deactivate\' \'vehicle export\' \'vehicle import\' \'vehicle help\'' -l fields -r -f -a '(__rentctl_list id user_id locale_id pickup_location vehicle_class_id vehicle_model_id vehicle_segment_id vehicle_year_of_issue_id vehicle_vin vehicle_odometer vehicle_reg_number_country vehicle_reg_number vehicle_activity price_per_day price_per_3days price_per_week price_per_14days vehicle_currency_id vehicle_protection_plans_insurance_price vehicle_protection_plans_insurance_exclude_security_deposit vehicle_protection_plans_no_deposit vehicle_protection_plans_third_party_insurance vehicle_protection_plans_deposit_price vehicle_protection_plans_deposit_pay_cash vehicle_protection_plans_deposit_pay_debit_card vehicle_protection_plans_deposit_pay_credit_card vehicle_protection_plans_deposit_return_period_cash vehicle_protection_plans_deposit_return_period_card vehicle_protection_plans_cdw1_price_day vehicle_protection_plans_cdw1_franchise vehicle_protection_plans_cdw1_security_deposit vehicle_protection_plans_cdw2_price_day vehicle_protection_plans_cdw2_franchise vehicle_protection_plans_cdw2_security_deposit vehicle_protection_plans_tire_windshield_price_day vehicle_protection_plans_theft_price_day vehicle_protection_plans_interior_price_day vehicle_protection_plans_roadside_price_day vehicle_tuning_text vehicle_delivery_address_fixed_place vehicle_delivery_address_fixed_location vehicle_delivery_address_fixed_price vehicle_delivery_return_fixed_place vehicle_delivery_return_fixed_location vehicle_delivery_return_fixed_price vehicle_distance_unit_id vehicle_distance_included vehicle_surcharge_for_excess price_surcharge_over_time vehicle_images vehicle_minimal_renting_period vehicle_minimal_age_to_rent vehicle_drivers_experience price_subscription_month price_subscription_3month price_subscription_6month price_subscription_year price_subscription_2years price_subscription_3years vehicle_description vehicle_benefits_id vehicle_options_id vehicle_payment_types vehicle_availability_calendar vehicle_passenger_capacity vehicle_luggage_capacity vehicle_extras vehicle_fuel_policy vehicle_booking_lead_time)' -d 'comma-separated columns / keys to show'
complete -c rentctl -n '__rentctl_using \'extra\' \'extra options\' \'extra list\' \'extra get\' \'extra create\' \'extra update\' \'extra switch\' \'extra delete\' \'extra help\'' -l fields -r -f -a '(__rentctl_list id locale_id option_id price currency_id period quantity)' -d 'comma-separated columns / keys to show'
complete -c rentctl -l raw -d 'print response bodies as received, meta included'

# Positional arguments
complete -c rentctl -n '__rentctl_arg \'auth help\' 0' -f -a 'login status logout'
complete -c rentctl -n '__rentctl_arg \'profile show\' 0' -f -a '(__rentctl_dynamic profiles)'
complete -c rentctl -n '__rentctl_arg \'profile use\' 0' -f -a '(__rentctl_dynamic profiles)'
complete -c rentctl -n '__rentctl_arg \'profile set\' 0' -f -a 'env base-url api-key user locale output timeout'
complete -c rentctl -n '__rentctl_arg \'profile remove\' 0' -f -a '(__rentctl_dynamic profiles)'
complete -c rentctl -n '__rentctl_arg \'profile help\' 0' -f -a 'list show use set remove'
complete -c rentctl -n '__rentctl_arg \'catalog help\' 0' -f -a 'setup currencies locales segments brands models equipments years classes transmissions benefits features options protection-plans delivery fuel-policies distance-units payment-systems payment-types extra-options'
complete -c rentctl -n '__rentctl_arg \'vehicle export\' 0' -F
complete -c rentctl -n '__rentctl_arg \'vehicle import\' 0' -F
complete -c rentctl -n '__rentctl_arg \'vehicle help\' 0' -f -a 'list get create wizard edit remove activate deactivate export import'
complete -c rentctl -n '__rentctl_arg \'image upload\' 0 more' -F
complete -c rentctl -n '__rentctl_arg \'image help\' 0' -f -a 'upload'
complete -c rentctl -n '__rentctl_arg \'extra help\' 0' -f -a 'options list get create update switch delete'
complete -c rentctl -n '__rentctl_arg \'api\' 0' -f -a 'setup currencies locales vehicles/segments vehicles/brands vehicles/models vehicles/equipments vehicles/years_of_issue vehicles/classes_or_types vehicles/transmissions vehicles/benefits vehicles/additional_features vehicles/options vehicles/protection_plans vehicles/delivery vehicles/fuel_policy vehicles/distance_units vehicles/payment_systems vehicles/payment/types vehicles/extras/options vehicles/list vehicles/list/id vehicles/create vehicles/edit vehicles/remove vehicles/upload vehicles/extras/list vehicles/extras/list/id vehicles/extras/create vehicles/extras/update vehicles/extras/switch vehicles/extras/delete'
complete -c rentctl -n '__rentctl_arg \'sandbox help\' 0' -f -a 'serve reset info'
complete -c rentctl -n '__rentctl_arg \'completion\' 0' -f -a 'bash zsh fish'
complete -c rentctl -n '__rentctl_arg \'help\' 0' -f -a 'auth profile catalog vehicle image extra undo api sandbox completion'
