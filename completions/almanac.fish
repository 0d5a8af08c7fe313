function __almanac_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __almanac_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __almanac_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __almanac_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __almanac_parse_tokens -S
    set -l unparsed_tokens (__almanac_tokens -pc)
    switch $unparsed_tokens[1]
    case 'almanac'
        __almanac_parse_subcommand 0 'c=+' 'f=+' 'format=' 'data=' 'bail' 'echo' 'interactive' 'no-color' 'no-rc' 'quiet' 'verbose' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'help'
            __almanac_parse_subcommand -r 1 'version'
        end
    end
end

function __almanac_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __almanac_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __almanac_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __almanac_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__almanac_tokens -p)
    if test -z "$(__almanac_tokens -t)"
        set -l index (count (__almanac_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'almanac' -f
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac"' -s 'c' -d 'Run COMMANDS and exit (repeatable).' -rfka ''
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac"' -s 'f' -d 'Run the commands in FILE and exit (repeatable).' -rF
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac" format' -l 'format' -d 'Output format.' -rfka 'table expanded json ndjson csv tsv markdown'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac" data' -l 'data' -d 'Folder with the datasets (default: $ALMANAC_DATA, else the installed data, else the checkout\'s Data).' -rfa '(__almanac_complete_directories)'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac" bail' -l 'bail' -d 'Stop at the first command that fails.'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac" echo' -l 'echo' -d 'In a script, list the results after every command that shapes them, not only the last.'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac" interactive' -l 'interactive' -d 'Open the prompt after running -c and -f.'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac" no-color' -l 'no-color' -d 'Never use colour (also: NO_COLOR in the environment).'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac" no-rc' -l 'no-rc' -d 'Skip the startup file.'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac" quiet' -l 'quiet' -d 'Print no banner or load summaries.'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac" verbose' -l 'verbose' -d 'Print load summaries in scripts too.'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac" version' -l 'version' -d 'Show the version.'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_positional "almanac" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'almanac' -n '__almanac_should_offer_completions_for_flags_or_options "almanac help" version' -l 'version' -d 'Show the version.'
